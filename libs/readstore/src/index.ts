export * from './read-store.port';
export { encodePosition, decodePosition } from './position-key';
export { SqliteReadStore } from './sqlite/sqlite-read-store';
export { MongoReadStore, connectMongo } from './mongo/mongo-read-store';
