import Big from 'big.js';
import fc from 'fast-check';
import { fromScaled, toScaled } from './scaled-quantity';

const decimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }), fc.nat({ max: 12 }), fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }))
  .map(([negative, whole, places, fraction]) => `${negative ? '-' : ''}${whole}${places === 0 ? '' : `.${fraction.toString().padStart(12, '0').slice(0, places)}`}`);

describe('scaled quantities', () => {
  it('reads and writes plain decimals exactly, in their shortest form', () => {
    expect(toScaled('12.5')).toBe(12_500_000_000_000n);
    expect(toScaled('-0.000000000001')).toBe(-1n);
    expect(fromScaled(12_500_000_000_000n)).toBe('12.5');
    expect(fromScaled(-1n)).toBe('-0.000000000001');
    expect(fromScaled(0n)).toBe('0');
    expect(() => toScaled('0.0000000000001')).toThrow(RangeError);
  });

  it('agrees with Big on the round trip, on sums and on products with whole milliseconds', () => {
    fc.assert(
      fc.property(decimal, decimal, fc.nat({ max: 2_678_400_000 }), (a, b, ms) => {
        expect(fromScaled(toScaled(a))).toBe(new Big(a).toFixed());
        expect(fromScaled(toScaled(a) + toScaled(b))).toBe(new Big(a).plus(b).toFixed());
        expect(fromScaled(toScaled(a) * BigInt(ms))).toBe(new Big(a).times(ms).toFixed());
      }),
    );
  });
});
