/** Bits a key and probes: about 0.05% false positives, so that many runs cost few needless lookups. */
const BITS_PER_KEY = 16;
const PROBES = 11;

/** A key's two hashes, computed once and tested against any number of filters. */
export type KeyHashes = readonly [first: number, step: number];

/**
 * Whether a key may be in a set, with no false negatives: a key set's sealed runs each have one,
 * kept in memory, so that a key that is in none of them (most keys) is looked up in none. Its size
 * is a power of two, so a probe is a mask rather than a division.
 */
export class BloomFilter {
  private readonly mask: number;

  constructor(readonly bits: Uint8Array) {
    if (bits.length === 0 || (bits.length & (bits.length - 1)) !== 0) throw new RangeError('A Bloom filter takes a power of two bytes');
    this.mask = bits.length * 8 - 1;
  }

  static sizedFor(keys: number): BloomFilter {
    let bytes = 8;
    while (bytes * 8 < keys * BITS_PER_KEY) bytes *= 2;
    return new BloomFilter(new Uint8Array(bytes));
  }

  add(key: string): void {
    const [first, step] = hashesOf(key);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = (first + probe * step) & this.mask;
      this.bits[bit >>> 3] |= 1 << (bit & 7);
    }
  }

  mayHold(hashes: KeyHashes): boolean {
    const [first, step] = hashes;
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = (first + probe * step) & this.mask;
      if ((this.bits[bit >>> 3] & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }
}

/** Two independent 32-bit FNV-style hashes of the key's UTF-16 units (double hashing: probe i is first + i × step). */
export function hashesOf(key: string): KeyHashes {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995) ^ (second >>> 15);
  }
  return [first >>> 0, (second | 1) >>> 0];
}
