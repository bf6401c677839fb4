import { randomUUID } from 'node:crypto';
import { BloomFilter } from './bloom-filter';

describe('BloomFilter', () => {
  it('holds every key added, and few others (about 1%)', () => {
    const added = Array.from({ length: 20_000 }, () => randomUUID());
    const filter = BloomFilter.sizedFor(added.length);
    added.forEach((key) => filter.add(key));

    expect(added.every((key) => filter.mayHold(key))).toBe(true);
    const others = Array.from({ length: 20_000 }, () => randomUUID());
    const falsePositives = others.filter((key) => filter.mayHold(key)).length;
    expect(falsePositives / others.length).toBeLessThan(0.02);
  });

  it('reads back the same answers from its bits, as a stored filter is', () => {
    const filter = BloomFilter.sizedFor(3);
    ['a', '["sub_1","calls","x"]', 'ключ'].forEach((key) => filter.add(key));
    const stored = new BloomFilter(Uint8Array.from(filter.bits));

    expect(['a', '["sub_1","calls","x"]', 'ключ'].every((key) => stored.mayHold(key))).toBe(true);
  });
});
