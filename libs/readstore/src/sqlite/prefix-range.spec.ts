import fc from 'fast-check';
import { prefixUpperBound } from './prefix-range';

/** SQLite's BINARY order: UTF-8 bytes, which is code point order. */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('prefixUpperBound', () => {
  it('increments the last code point', () => {
    expect(prefixUpperBound('ann')).toBe('ano');
    expect(prefixUpperBound('a%')).toBe('a&');
    expect(prefixUpperBound('x😀')).toBe('x😁');
  });

  it('drops trailing maximal code points and steps over the surrogate range', () => {
    expect(prefixUpperBound('a\u{10FFFF}\u{10FFFF}')).toBe('b');
    expect(prefixUpperBound('a\uD7FF')).toBe('a\uE000');
  });

  it('has no bound for the empty prefix or one made only of maximal code points', () => {
    expect(prefixUpperBound('')).toBeUndefined();
    expect(prefixUpperBound('\u{10FFFF}')).toBeUndefined();
  });

  it('makes [prefix, bound) hold exactly the strings that start with the prefix', () => {
    const unit = fc.constantFrom('a', 'b', 'A', '%', '\uD7FF', '\uE000', 'é', '😀', '\u{10FFFF}');
    const text = fc.string({ unit, maxLength: 4 });
    fc.assert(
      fc.property(text, text, (prefix, value) => {
        const bound = prefixUpperBound(prefix);
        const inRange = compare(value, prefix) >= 0 && (bound === undefined || compare(value, bound) < 0);
        return inRange === value.startsWith(prefix);
      }),
      { numRuns: 2000 },
    );
  });
});
