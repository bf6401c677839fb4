import fc from 'fast-check';
import { decodePosition, encodePosition } from './position-key';

describe('position keys', () => {
  const position = fc.bigInt({ min: 0n, max: 10n ** 40n - 1n });

  it('round-trip, up to 40 digits', () => {
    fc.assert(fc.property(position, (value) => decodePosition(encodePosition(value)) === value));
    expect(encodePosition(2n ** 64n)).toBe('0000000000000000000018446744073709551616');
  });

  it('order as text exactly as the positions order as numbers', () => {
    fc.assert(fc.property(position, position, (a, b) => encodePosition(a) < encodePosition(b) === a < b));
  });

  it('reject what does not fit', () => {
    expect(() => encodePosition(-1n)).toThrow(RangeError);
    expect(() => encodePosition(10n ** 40n)).toThrow(RangeError);
    expect(() => encodePosition(5 as unknown as bigint)).toThrow(RangeError);
  });
});
