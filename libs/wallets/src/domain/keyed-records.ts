/**
 * A persistent map from string keys to records, for what a long-lived aggregate must remember of
 * every event it ever took (a wallet's posted transactions, its external ids): adding a record
 * copies one of 64 buckets rather than the whole map, so folding a stream of n postings costs
 * n × n/64 copies instead of n², and a state once folded is never changed by a later one.
 */
export type KeyedRecords<V> = readonly (ReadonlyMap<string, V> | undefined)[];

const BUCKETS = 64;

export const emptyRecords = <V>(): KeyedRecords<V> => new Array<ReadonlyMap<string, V> | undefined>(BUCKETS).fill(undefined);

/** FNV-1a over the key's UTF-16 code units. */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}

export const recordOf = <V>(records: KeyedRecords<V>, key: string): V | undefined => records[bucketOf(key)]?.get(key);

export function withRecord<V>(records: KeyedRecords<V>, key: string, value: V): KeyedRecords<V> {
  const index = bucketOf(key);
  const copy = records.slice();
  copy[index] = new Map(records[index]).set(key, value);
  return copy;
}
