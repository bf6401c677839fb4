import { assertCollectionName } from './names';
import { FOREVER, type Write } from './read-store.port';

/** Keys the MongoDB adapter stores beside a document's own fields; both adapters refuse them alike. */
const RESERVED_KEYS = ['_id', '_position', '_deleted'];

export function assertWrite(write: Write): void {
  assertCollectionName(write.collection);
  if (write.op === 'add_keys') {
    if (!Array.isArray(write.keys) || write.keys.some((key) => typeof key !== 'string')) throw new TypeError('A key set takes string keys');
    if (write.at !== undefined && !Number.isSafeInteger(write.at)) throw new TypeError('A key is added at a time that is a whole number');
    if (write.refs !== undefined && (!Array.isArray(write.refs) || write.refs.length !== write.keys.length || write.refs.some((ref) => ref !== null && typeof ref !== 'string'))) {
      throw new TypeError('A key set takes one ref (a string, or null) for each key');
    }
    return;
  }
  if (write.op === 'forget_keys') {
    if (!Number.isSafeInteger(write.before)) throw new TypeError('Keys are forgotten before a time that is a whole number');
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

export type DocumentWrite = Extract<Write, { op: 'upsert' | 'delete' }>;

/** Keys a commit adds to one key set at one time (FOREVER for keys added without one), each with its ref (null for none). */
export interface KeyAddition {
  keySet: string;
  keys: string[];
  refs: (string | null)[];
  at: number;
}

/**
 * A commit's writes split, in the order they are applied: its document writes in order, then the
 * keys it adds (by key set and time), then, by key set, the time before which keys may go.
 */
export function splitWrites(writes: readonly Write[]): { documents: DocumentWrite[]; additions: KeyAddition[]; forgets: Map<string, number> } {
  const documents: DocumentWrite[] = [];
  const additions = new Map<string, KeyAddition>();
  const forgets = new Map<string, number>();
  for (const write of writes) {
    if (write.op === 'add_keys') {
      const at = write.at ?? FOREVER;
      const id = `${write.collection}\u0000${at}`;
      let added = additions.get(id);
      if (!added) additions.set(id, (added = { keySet: write.collection, keys: [], refs: [], at }));
      // A loop, not a spread: a commit may add hundreds of thousands of keys.
      for (const [index, key] of write.keys.entries()) {
        added.keys.push(key);
        added.refs.push(write.refs?.[index] ?? null);
      }
    } else if (write.op === 'forget_keys') {
      forgets.set(write.collection, Math.max(forgets.get(write.collection) ?? -Infinity, write.before));
    } else {
      documents.push(write);
    }
  }
  return { documents, additions: [...additions.values()], forgets };
}
