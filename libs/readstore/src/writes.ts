import { assertCollectionName } from './names';
import type { Write } from './read-store.port';

/** Keys the MongoDB adapter stores beside a document's own fields; both adapters refuse them alike. */
const RESERVED_KEYS = ['_id', '_position', '_deleted'];

export function assertWrite(write: Write): void {
  assertCollectionName(write.collection);
  if (write.op === 'add_keys') {
    if (!Array.isArray(write.keys) || write.keys.some((key) => typeof key !== 'string')) throw new TypeError('A key set takes string keys');
    return;
  }
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

export type DocumentWrite = Exclude<Write, { op: 'add_keys' }>;

/** A commit's writes split: its document writes in order, and the keys it adds, by key set (applied after the documents). */
export function splitWrites(writes: readonly Write[]): { documents: DocumentWrite[]; keys: Map<string, string[]> } {
  const documents: DocumentWrite[] = [];
  const keys = new Map<string, string[]>();
  for (const write of writes) {
    if (write.op !== 'add_keys') {
      documents.push(write);
      continue;
    }
    const added = keys.get(write.collection);
    if (added) added.push(...write.keys);
    else keys.set(write.collection, [...write.keys]);
  }
  return { documents, keys };
}
