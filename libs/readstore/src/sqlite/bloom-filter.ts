/** Bits a key and probes: about 1% false positives. */
const BITS_PER_KEY = 10;
const PROBES = 7;

/**
 * Whether a key may be in a set, with no false negatives: a key set's sealed runs each have one,
 * kept in memory, so that a key that is in none of them (most keys) is looked up in none.
 */
export class BloomFilter {
  private readonly size: number;

  constructor(readonly bits: Uint8Array) {
    this.size = bits.length * 8;
  }

  static sizedFor(keys: number): BloomFilter {
    return new BloomFilter(new Uint8Array(Math.max(8, Math.ceil((keys * BITS_PER_KEY) / 8))));
  }

  add(key: string): void {
    const [first, step] = hashes(key);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = (first + probe * step) % this.size;
      this.bits[bit >>> 3] |= 1 << (bit & 7);
    }
  }

  mayHold(key: string): boolean {
    const [first, step] = hashes(key);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = (first + probe * step) % this.size;
      if ((this.bits[bit >>> 3] & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }
}

/** Two independent 32-bit FNV-1a hashes of the key's UTF-16 units (double hashing: probe i is first + i × step). */
function hashes(key: string): [number, number] {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995) ^ (second >>> 15);
  }
  return [first >>> 0, (second | 1) >>> 0];
}
