export * from './read-store.port';
export { SqliteReadStore } from './sqlite/sqlite-read-store';
export { MongoReadStore, connectMongo } from './mongo/mongo-read-store';
