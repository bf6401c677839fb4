import Big from 'big.js';
import fc from 'fast-check';
import { minorUnits, roundToCurrency, type RoundingMode } from '@tally/kernel';
import { calculateTax } from './calculate-tax';
import { TAX_BEHAVIORS, TAX_CODES, type TaxableLine, type TaxRequest } from './tax';
import type { TaxJurisdiction, TaxTable } from './tax-table';

const CURRENCIES = ['EUR', 'JPY', 'KWD'];

/** An amount in `currency`'s minor units, negative ones (credits) included. */
const amountIn = (currency: string) =>
  fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).map((units) => new Big(`${units}e-${minorUnits(currency)}`));

/** A percentage from 0 to 30 with up to three decimals, as tax rates have (9.975). */
const rate = fc.integer({ min: 0, max: 30_000 }).map((thousandths) => new Big(thousandths).div(1000).toFixed());

const rounding = fc.constantFrom<RoundingMode>('half_even', 'half_up');

function levying(id: string, region: string | null, rateInForce: string, mode: RoundingMode): TaxJurisdiction {
  return {
    id,
    country: 'XX',
    region,
    tax_type: region === null ? 'gst' : 'pst',
    eu: false,
    rounding: mode,
    country_tax: region === null ? null : 'kept',
    periods: [{ from: '2000-01-01', standard: rateInForce, reduced: null }],
  };
}

/** A made-up country `XX` with one tax and, sometimes, a region `XX-R` adding a second: Canada's shape. */
const syntheticTable = fc
  .record({ countryRate: rate, countryRounding: rounding, regionRate: fc.option(rate), regionRounding: rounding })
  .map(({ countryRate, countryRounding, regionRate, regionRounding }): TaxTable => ({
    version: 'test',
    jurisdictions: [
      levying('XX', null, countryRate, countryRounding),
      ...(regionRate === null ? [] : [levying('XX-R', 'R', regionRate, regionRounding)]),
    ],
  }));

const syntheticCase = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    currency: fc.constant(currency),
    table: syntheticTable,
    amounts: fc.array(amountIn(currency), { minLength: 1, maxLength: 5 }),
  }),
);

function syntheticRequest(currency: string, amounts: Big[], behavior: TaxRequest['behavior']): TaxRequest {
  return {
    currency,
    date: '2026-01-15',
    behavior,
    seller: { country: 'XX', region: null },
    customer: { location: { country: 'XX', region: 'R' }, tax_ids: [], tax_id_invalid: false },
    lines: amounts.map((amount, i) => ({ key: `li_${i}`, amount, tax_code: 'standard' })),
  };
}

/** Real locations of the table, with its special cases: reverse charge, regions, not collecting, no location. */
const realRequest = fc
  .record({
    customer: fc.constantFrom(
      { location: { country: 'DE', region: null }, tax_ids: [], tax_id_invalid: false },
      {
        location: { country: 'FR', region: null },
        tax_ids: [{ type: 'eu_vat', value: 'FR40303265045', status: 'verified' as const }],
        tax_id_invalid: false,
      },
      { location: { country: 'CA', region: 'QC' }, tax_ids: [], tax_id_invalid: false },
      { location: { country: 'CA', region: 'BC' }, tax_ids: [], tax_id_invalid: false },
      { location: { country: 'CA', region: 'NS' }, tax_ids: [], tax_id_invalid: false },
      { location: { country: 'FI', region: null }, tax_ids: [], tax_id_invalid: false },
      { location: { country: 'US', region: 'NY' }, tax_ids: [], tax_id_invalid: false },
      { location: null, tax_ids: [], tax_id_invalid: false },
    ),
    behavior: fc.constantFrom(...TAX_BEHAVIORS),
    date: fc.date({ min: new Date('2021-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true }),
    lines: fc.array(
      fc.record({ amount: amountIn('EUR'), tax_code: fc.constantFrom(...TAX_CODES) }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map(({ customer, behavior, date, lines }): TaxRequest => ({
    currency: 'EUR',
    date: date.toISOString(),
    behavior,
    seller: { country: 'DE', region: null },
    customer,
    lines: lines.map((line, i): TaxableLine => ({ key: `li_${i}`, ...line })),
  }));

const sum = (amounts: Big[]) => amounts.reduce((total, a) => total.plus(a), new Big(0));

describe('calculateTax properties', () => {
  it('inclusive: taxable + tax is the line amount exactly, each tax within half a minor unit of net × rate', () => {
    fc.assert(
      fc.property(syntheticCase, ({ currency, table, amounts }) => {
        const result = calculateTax(syntheticRequest(currency, amounts, 'inclusive'), table);
        result.lines.forEach((line, i) => {
          expect(line.taxable_amount.plus(line.tax_amount).eq(amounts[i])).toBe(true);
          const halfUnit = new Big(`5e-${minorUnits(currency) + 1}`);
          for (const tax of line.jurisdictions) {
            // net × rate / 100 with net = amount / (1 + Σrates / 100), as one division: exact wherever it terminates.
            const exact = amounts[i].times(tax.rate).div(line.rate.plus(100));
            expect(tax.tax_amount.minus(exact).abs().lte(halfUnit)).toBe(true);
          }
        });
      }),
    );
  });

  it('exclusive: each jurisdiction’s tax is round(amount × rate / 100) in its rounding mode', () => {
    fc.assert(
      fc.property(syntheticCase, ({ currency, table, amounts }) => {
        const result = calculateTax(syntheticRequest(currency, amounts, 'exclusive'), table);
        result.lines.forEach((line, i) => {
          expect(line.taxable_amount.eq(amounts[i])).toBe(true);
          for (const tax of line.jurisdictions) {
            const expected = roundToCurrency(amounts[i].times(tax.rate).div(100), currency, tax.rounding);
            expect(tax.tax_amount.eq(expected)).toBe(true);
          }
        });
      }),
    );
  });

  it('the breakdown’s sums equal the lines’ sums, and each line’s tax is its jurisdictions’ sum', () => {
    fc.assert(
      fc.property(realRequest, (request) => {
        const result = calculateTax(request);
        for (const line of result.lines) {
          expect(line.tax_amount.eq(sum(line.jurisdictions.map((j) => j.tax_amount)))).toBe(true);
        }
        const lineTax = sum(result.lines.map((l) => l.tax_amount));
        expect(sum(result.breakdown.map((b) => b.tax_amount)).eq(lineTax)).toBe(true);
        const jurisdictionTaxable = sum(result.lines.flatMap((l) => l.jurisdictions.map((j) => j.taxable_amount)));
        expect(sum(result.breakdown.map((b) => b.taxable_amount)).eq(jurisdictionTaxable)).toBe(true);
      }),
    );
  });

  it('the breakdown does not depend on the order of the lines', () => {
    fc.assert(
      fc.property(realRequest, (request) => {
        const reversed = { ...request, lines: [...request.lines].reverse() };
        const view = (req: TaxRequest) =>
          calculateTax(req).breakdown.map((b) => ({
            ...b,
            rate: b.rate.toFixed(),
            taxable_amount: b.taxable_amount.toFixed(),
            tax_amount: b.tax_amount.toFixed(),
          }));
        expect(view(reversed)).toEqual(view(request));
      }),
    );
  });

  it('a zero amount owes zero tax, whatever the place, code, behaviour and date', () => {
    fc.assert(
      fc.property(realRequest, (request) => {
        const zeroed = { ...request, lines: request.lines.map((line) => ({ ...line, amount: new Big(0) })) };
        for (const line of calculateTax(zeroed).lines) {
          expect(line.tax_amount.eq(0)).toBe(true);
          expect(line.taxable_amount.eq(0)).toBe(true);
        }
      }),
    );
  });
});
