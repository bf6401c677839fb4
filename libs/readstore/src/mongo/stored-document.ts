import type { Doc } from '../read-store.port';
import { withUserKeyedFields } from '../user-keyed-fields';

/** A document as MongoDB holds it: its own fields plus `_id`, `_position` and, on a tombstone, `_deleted`. */
export interface StoredDocument {
  _id: string;
  _position: string;
  _deleted?: true;
  [field: string]: unknown;
}

export interface StoredCheckpoint {
  _id: string;
  position: string;
}

export function toDoc<T extends Doc>(stored: StoredDocument): T {
  const { _id, _position, _deleted, ...doc } = stored;
  return withUserKeyedFields(doc as T);
}
