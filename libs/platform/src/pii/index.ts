export * from './data-key-store.port';
export * from './data-key-destroyed.error';
export * from './sqlite-data-key-store';
export * from './mongo-data-key-store';
export * from './pii-codec';
