import { randomUUID } from 'node:crypto';
import { BloomFilter, hashesOf } from './bloom-filter';

describe('BloomFilter', () => {
  it('holds every key added, and few others (about 0.05%)', () => {
    const added = Array.from({ length: 20_000 }, () => randomUUID());
    const filter = BloomFilter.sizedFor(added.length);
    added.forEach((key) => filter.add(key));

    expect(added.every((key) => filter.mayHold(hashesOf(key)))).toBe(true);
    const others = Array.from({ length: 100_000 }, () => randomUUID());
    const falsePositives = others.filter((key) => filter.mayHold(hashesOf(key))).length;
    expect(falsePositives / others.length).toBeLessThan(0.002);
  });

  it('reads back the same answers from its bits, as a stored filter is', () => {
    const filter = BloomFilter.sizedFor(3);
    ['a', '["sub_1","calls","x"]', 'ключ'].forEach((key) => filter.add(key));
    const stored = new BloomFilter(Uint8Array.from(filter.bits));

    expect(['a', '["sub_1","calls","x"]', 'ключ'].every((key) => stored.mayHold(hashesOf(key)))).toBe(true);
  });

  it('takes a power of two bytes', () => {
    expect(BloomFilter.sizedFor(1_000).bits.length).toBe(2_048);
    expect(() => new BloomFilter(new Uint8Array(100))).toThrow(RangeError);
  });
});
