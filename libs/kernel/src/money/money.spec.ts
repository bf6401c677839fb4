import Big from 'big.js';
import fc from 'fast-check';
import { currencyCodes, minorUnits } from './currencies';
import { allocate, formatAmount, formatExactAmount, isWholeMinorUnits, parseAmount, parseUnitAmount, roundToCurrency } from './money';

const RUNS = { numRuns: 200 };

const amountString = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }))
  .map(([negative, units, scale]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    const plain = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return negative ? `-${plain}` : plain;
  });
const currency = fc.constantFrom(...currencyCodes());

function texts(values: Big[]): string[] {
  return values.map((v) => v.toFixed());
}

describe('parseAmount', () => {
  it.each(['0', '-0', '12', '12.5', '-0.00000001', '00012.50', '12345678901234567890', '123456789012.12345678'])(
    'accepts the plain decimal %s',
    (s) => {
      expect(parseAmount(s).eq(new Big(s))).toBe(true);
    },
  );

  it.each([
    ['exponent notation', '1.0e3'],
    ['upper-case exponent', '1E3'],
    ['leading plus', '+1'],
    ['surrounding whitespace', ' 1'],
    ['trailing whitespace', '1\n'],
    ['bare point', '1.'],
    ['leading point', '.5'],
    ['empty string', ''],
    ['comma separator', '1,5'],
    ['more than 8 fraction digits', '0.123456789'],
    ['more than 20 digits', '123456789012345678901'],
    ['more than 20 digits across the point', '1234567890123.12345678'],
    ['a word', 'NaN'],
    ['infinity', 'Infinity'],
  ])('rejects %s (%j)', (_, s) => {
    expect(() => parseAmount(s)).toThrow(expect.objectContaining({ code: 'money.invalid_amount', kind: 'invalid' }));
  });
});

describe('parseUnitAmount', () => {
  it.each(['0.000000000001', '12.50', '100.00', '12345678.123456789012'])('accepts the plain decimal %s', (s) => {
    expect(parseUnitAmount(s).eq(new Big(s))).toBe(true);
  });

  it.each([
    ['more than 12 fraction digits', '0.0000000000001'],
    ['more than 20 digits across the point', '123456789.123456789012'],
    ['exponent notation', '1e-12'],
  ])('rejects %s (%j)', (_, s) => {
    expect(() => parseUnitAmount(s)).toThrow(expect.objectContaining({ code: 'money.invalid_amount', kind: 'invalid' }));
  });
});

describe('isWholeMinorUnits', () => {
  it.each([
    ['0.50', 'USD', true],
    ['0.5', 'USD', true],
    ['0.505', 'USD', false],
    ['500', 'JPY', true],
    ['500.0', 'JPY', true],
    ['0.5', 'JPY', false],
    ['1.125', 'KWD', true],
    ['1.1255', 'KWD', false],
    ['-0.01', 'EUR', true],
    ['-0.001', 'EUR', false],
  ])('%s %s: %s', (amount, code, whole) => {
    expect(isWholeMinorUnits(new Big(amount), code)).toBe(whole);
  });

  it('holds exactly when rounding to the currency changes nothing', () => {
    fc.assert(
      fc.property(amountString, currency, (s, code) => {
        const amount = new Big(s);
        expect(isWholeMinorUnits(amount, code)).toBe(roundToCurrency(amount, code).eq(amount));
      }),
      RUNS,
    );
  });
});

describe('formatExactAmount', () => {
  it.each([
    ['35', 'USD', '35.00'],
    ['0.00455', 'USD', '0.00455'],
    ['4.1', 'USD', '4.10'],
    ['12.3450000185175', 'EUR', '12.3450000185175'],
    ['7', 'JPY', '7'],
    ['0.5', 'JPY', '0.5'],
    ['1.2', 'KWD', '1.200'],
    ['0', 'USD', '0.00'],
  ])('%s %s is %s', (amount, code, text) => {
    expect(formatExactAmount(new Big(amount), code)).toBe(text);
  });

  it('never changes the value', () => {
    fc.assert(
      fc.property(amountString, currency, (s, code) => {
        expect(new Big(formatExactAmount(new Big(s), code)).eq(new Big(s))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('roundToCurrency', () => {
  it.each([
    // value, currency, half-even, half-up
    ['0.125', 'USD', '0.12', '0.13'],
    ['0.135', 'USD', '0.14', '0.14'],
    ['-0.125', 'USD', '-0.12', '-0.13'],
    ['2.5', 'JPY', '2', '3'],
    ['3.5', 'JPY', '4', '4'],
    ['-2.5', 'JPY', '-2', '-3'],
    ['1.2345', 'KWD', '1.234', '1.235'],
    ['-1.2345', 'KWD', '-1.234', '-1.235'],
    ['0.00005', 'CLF', '0', '0.0001'],
    ['1.126', 'USD', '1.13', '1.13'],
  ])('rounds %s %s to %s half-even and %s half-up', (value, code, halfEven, halfUp) => {
    expect(roundToCurrency(new Big(value), code).toFixed()).toBe(new Big(halfEven).toFixed());
    expect(roundToCurrency(new Big(value), code, 'half_up').toFixed()).toBe(new Big(halfUp).toFixed());
  });

  it('is idempotent and leaves at most the minor units', () => {
    fc.assert(
      fc.property(amountString, currency, fc.constantFrom('half_even' as const, 'half_up' as const), (s, code, mode) => {
        const once = roundToCurrency(new Big(s), code, mode);
        expect(roundToCurrency(once, code, mode).eq(once)).toBe(true);
        expect(once.toFixed().split('.')[1]?.length ?? 0).toBeLessThanOrEqual(minorUnits(code));
      }),
      RUNS,
    );
  });

  it('treats negative values as the mirror of positive ones', () => {
    fc.assert(
      fc.property(amountString, currency, fc.constantFrom('half_even' as const, 'half_up' as const), (s, code, mode) => {
        const value = new Big(s);
        expect(roundToCurrency(value.neg(), code, mode).eq(roundToCurrency(value, code, mode).neg())).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('formatAmount', () => {
  it.each([
    ['5', 'USD', '5.00'],
    ['1.5', 'KWD', '1.500'],
    ['1234.5', 'JPY', '1234'],
    ['1235.5', 'JPY', '1236'],
    ['0.125', 'USD', '0.12'],
    ['-0.001', 'USD', '0.00'],
    ['0.00000001', 'CLF', '0.0000'],
    ['1e21', 'USD', '1000000000000000000000.00'],
  ])('shows %s %s as %s', (value, code, expected) => {
    expect(formatAmount(new Big(value), code)).toBe(expected);
  });

  it.each([
    ['1.500', '1.5'],
    ['100', '100'],
    ['1e-7', '0.0000001'],
    ['1e21', '1000000000000000000000'],
    ['-0.00000001', '-0.00000001'],
  ])('shows %s without a currency as %s', (value, expected) => {
    expect(formatAmount(new Big(value))).toBe(expected);
  });

  it('round-trips every parsable amount', () => {
    fc.assert(
      fc.property(amountString, (s) => {
        expect(parseAmount(formatAmount(parseAmount(s))).eq(new Big(s))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('allocate', () => {
  it('splits 100.00 USD in three equal parts, the extra cent to the first', () => {
    const parts = allocate(new Big('100'), [new Big(1), new Big(1), new Big(1)], 'USD');
    expect(texts(parts)).toEqual(['33.34', '33.33', '33.33']);
  });

  it('gives leftovers to the largest remainders before earlier indexes', () => {
    // 0.05 USD = 5 cents over weights 1:2:2 → exact shares 1, 2, 2: no leftover.
    expect(texts(allocate(new Big('0.05'), [new Big(1), new Big(2), new Big(2)], 'USD'))).toEqual(['0.01', '0.02', '0.02']);
    // 10 cents over 1:1:1:1 → exact 2.5 each → floors 2 each; two cents left and all remainders
    // equal (1/2), so the two earliest indexes take them.
    expect(texts(allocate(new Big('0.10'), [new Big(1), new Big(1), new Big(1), new Big(1)], 'USD'))).toEqual([
      '0.03',
      '0.03',
      '0.02',
      '0.02',
    ]);
    // 11 cents over 1:1:4 → exact 1.83, 1.83, 7.33 → floors 1, 1, 7; two cents left go to the
    // largest remainders (5/6, 5/6), not to the last part (2/6).
    expect(texts(allocate(new Big('0.11'), [new Big(1), new Big(1), new Big(4)], 'USD'))).toEqual(['0.02', '0.02', '0.07']);
    // 10 cents over 3:3:4 → exact 3, 3, 4: no leftover.
    expect(texts(allocate(new Big('0.10'), [new Big(3), new Big(3), new Big(4)], 'USD'))).toEqual(['0.03', '0.03', '0.04']);
    // 10 cents over 0.2:0.3:0.5 scaled to 2:3:5 → exact 2, 3, 5.
    expect(texts(allocate(new Big('0.10'), [new Big('0.2'), new Big('0.3'), new Big('0.5')], 'USD'))).toEqual(['0.02', '0.03', '0.05']);
    // 8 cents over 1:3:3 → exact 1.14, 3.43, 3.43 → floors 1, 3, 3; one left; remainders 1/7, 3/7, 3/7:
    // the second and third tie, the second (earlier) wins.
    expect(texts(allocate(new Big('0.08'), [new Big(1), new Big(3), new Big(3)], 'USD'))).toEqual(['0.01', '0.04', '0.03']);
  });

  it('works at the currency minor unit (JPY whole yen, KWD fils)', () => {
    expect(texts(allocate(new Big('100'), [new Big(1), new Big(1), new Big(1)], 'JPY'))).toEqual(['34', '33', '33']);
    expect(texts(allocate(new Big('1'), [new Big(1), new Big(1), new Big(1)], 'KWD'))).toEqual(['0.334', '0.333', '0.333']);
  });

  it('splits equally when every weight is zero', () => {
    expect(texts(allocate(new Big('10.00'), [new Big(0), new Big(0), new Big(0)], 'USD'))).toEqual(['3.34', '3.33', '3.33']);
  });

  it('gives nothing to a zero weight when others are positive', () => {
    expect(texts(allocate(new Big('10.00'), [new Big(0), new Big(1)], 'USD'))).toEqual(['0', '10']);
  });

  it('mirrors a negative total', () => {
    expect(texts(allocate(new Big('-100'), [new Big(1), new Big(1), new Big(1)], 'USD'))).toEqual(['-33.34', '-33.33', '-33.33']);
  });

  it('rounds the total half-even to the currency first', () => {
    expect(texts(allocate(new Big('0.125'), [new Big(1)], 'USD'))).toEqual(['0.12']);
  });

  it('rejects no weights and negative weights', () => {
    expect(() => allocate(new Big(1), [], 'USD')).toThrow(expect.objectContaining({ code: 'money.invalid_allocation' }));
    expect(() => allocate(new Big(1), [new Big(1), new Big(-1)], 'USD')).toThrow(
      expect.objectContaining({ code: 'money.invalid_allocation' }),
    );
  });

  const weight = fc.oneof(
    fc.integer({ min: 0, max: 1000 }).map((n) => new Big(n)),
    amountString.map((s) => new Big(s).abs()),
  );

  it('always sums exactly to the rounded total, each part at the minor unit and within one unit of its share', () => {
    fc.assert(
      fc.property(amountString, fc.array(weight, { minLength: 1, maxLength: 12 }), currency, (s, weights, code) => {
        const total = new Big(s);
        const parts = allocate(total, weights, code);
        const unit = new Big(10).pow(-minorUnits(code));
        const rounded = roundToCurrency(total, code);
        expect(parts).toHaveLength(weights.length);
        expect(parts.reduce((a, b) => a.plus(b), new Big(0)).eq(rounded)).toBe(true);
        const totalWeight = weights.reduce((a, b) => a.plus(b), new Big(0));
        parts.forEach((part, i) => {
          expect(roundToCurrency(part, code).eq(part)).toBe(true);
          if (totalWeight.gt(0)) {
            const share = rounded.times(weights[i]).div(totalWeight);
            expect(part.minus(share).abs().lte(unit)).toBe(true);
          }
        });
      }),
      RUNS,
    );
  });
});
