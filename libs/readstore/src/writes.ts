import { assertCollectionName } from './names';
import type { Write } from './read-store.port';

/** Keys the MongoDB adapter stores beside a document's own fields; both adapters refuse them alike. */
const RESERVED_KEYS = ['_id', '_position', '_deleted'];

export function assertWrite(write: Write): void {
  assertCollectionName(write.collection);
  if (write.op === 'delete') {
    if (typeof write.id !== 'string') throw new TypeError('A delete needs a string id');
    return;
  }
  if (write.op !== 'upsert') throw new TypeError(`Unknown write: ${String((write as { op: unknown }).op)}`);
  const { doc } = write;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new TypeError('A document must be an object');
  if (typeof doc.id !== 'string') throw new TypeError('A document needs a string id');
  const reserved = RESERVED_KEYS.find((key) => key in doc);
  if (reserved) throw new TypeError(`Document ${doc.id} uses the reserved key ${reserved}`);
}
