export * from './event-store.port';
export { openSqliteDatabase, type SqliteDatabase } from './sqlite/sqlite-database';
export { SqliteEventStore } from './sqlite/sqlite-event-store';
export { SqliteSnapshotStore } from './sqlite/sqlite-snapshot-store';
export { connectEsdb } from './esdb/connect-esdb';
export { EsdbEventStore } from './esdb/esdb-event-store';
export { EsdbSnapshotStore } from './esdb/esdb-snapshot-store';
export { DEFAULT_RESUBSCRIBE_POLICY, type ResubscribePolicy } from './esdb/esdb-subscription';
export { ulidToUuid, uuidToUlid } from './esdb/ulid-uuid';
