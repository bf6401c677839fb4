const FIELD_PATH = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/i;
/** Lower case only: SQLite table names ignore case, so `Invoices` and `invoices` would share a table. */
const COLLECTION_NAME = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
/** Both adapters keep their checkpoints under this name. */
export const CHECKPOINTS = 'checkpoints';

/** Names end up inside SQL and MongoDB paths, so only this plain shape is accepted. */
export function assertCollectionName(name: string): void {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name)) {
    throw new TypeError(`Invalid collection name: ${JSON.stringify(name)}`);
  }
  if (name === CHECKPOINTS) throw new TypeError(`Reserved collection name: ${name}`);
}

export function assertFieldPath(path: string): void {
  if (typeof path !== 'string' || !FIELD_PATH.test(path)) {
    throw new TypeError(`Invalid field path: ${JSON.stringify(path)}`);
  }
}
