export * from './data-key-store.port';
export * from './data-key-destroyed.error';
export * from './sqlite-data-key-store';
export * from './data-keys-written-with-append';
export * from './mongo-data-key-store';
export * from './pii-codec';
