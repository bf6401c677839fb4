import Big from 'big.js';
import { calculateTax } from './calculate-tax';
import type { LineTax, TaxBehavior, TaxCode, TaxCustomer, TaxLocation, TaxRequest } from './tax';

const GERMANY: TaxLocation = { country: 'DE', region: null };

function customerIn(country: string, region: string | null = null, taxIds: TaxCustomer['tax_ids'] = []): TaxCustomer {
  return { location: { country, region }, tax_ids: taxIds, tax_id_invalid: false };
}

function request(
  customer: TaxCustomer,
  amount: string,
  { taxCode = 'standard', behavior = 'exclusive', date = '2026-01-15', currency = 'EUR', seller = GERMANY }: {
    taxCode?: TaxCode;
    behavior?: TaxBehavior;
    date?: string;
    currency?: string;
    seller?: TaxLocation;
  } = {},
): TaxRequest {
  return { currency, date, behavior, seller, customer, lines: [{ key: 'li_1', amount: new Big(amount), tax_code: taxCode }] };
}

/** The amount with exactly `digits` decimals; fails when rounding left more behind. */
function money(amount: Big, digits = 2): string {
  expect(amount.round(digits).eq(amount)).toBe(true);
  return amount.toFixed(digits);
}

/** A line's figures as strings, for one readable assertion. */
function summary(line: LineTax, digits = 2) {
  return {
    taxable: money(line.taxable_amount, digits),
    tax: money(line.tax_amount, digits),
    rate: line.rate.toFixed(),
    reason: line.taxability_reason,
    taxes: line.jurisdictions.map((j) => `${j.jurisdiction} ${j.tax_type} ${j.rate.toFixed()}% ${money(j.tax_amount, digits)}`),
  };
}

function onlyLine(req: TaxRequest) {
  const result = calculateTax(req);
  expect(result.lines).toHaveLength(1);
  return summary(result.lines[0], req.currency === 'JPY' ? 0 : 2);
}

describe('calculateTax', () => {
  describe('exclusive and inclusive amounts', () => {
    it('adds 19 % to 100.00 in Germany: 19.00', () => {
      const result = calculateTax(request(customerIn('DE'), '100.00'));
      expect(result.table_version).toBe('2026-01-01');
      expect(result.reverse_charge).toBe(false);
      expect(summary(result.lines[0])).toEqual({
        taxable: '100.00',
        tax: '19.00',
        rate: '19',
        reason: 'standard_rated',
        taxes: ['DE vat 19% 19.00'],
      });
    });

    it('takes 19 % out of 119.00: net 100.00, tax 19.00', () => {
      expect(onlyLine(request(customerIn('DE'), '119.00', { behavior: 'inclusive' }))).toMatchObject({
        taxable: '100.00',
        tax: '19.00',
      });
    });

    it('takes 19 % out of 10.00: 10 × 19 / 119 = 1.5966… → tax 1.60, taxable 8.40, together exactly 10.00', () => {
      // 8.40 × 1.19 = 9.996: the net is not exact, so it is what is left once the tax is rounded.
      expect(onlyLine(request(customerIn('DE'), '10.00', { behavior: 'inclusive' }))).toMatchObject({
        taxable: '8.40',
        tax: '1.60',
      });
    });
  });

  describe('rounding per jurisdiction', () => {
    // 1.50 × 19 % = 0.285, exactly half a cent: the mode decides. Cyprus also charges 19 %.
    it('rounds a tie up in Germany (commercial rounding): 0.285 → 0.29', () => {
      expect(onlyLine(request(customerIn('DE'), '1.50')).tax).toBe('0.29');
    });

    it('rounds the same tie to the even cent where the default applies (Cyprus): 0.285 → 0.28', () => {
      expect(onlyLine(request(customerIn('CY'), '1.50')).tax).toBe('0.28');
    });
  });

  describe('tax codes', () => {
    it('charges France’s reduced rate of 5.5 %: 19.99 → 1.09945 → 1.10', () => {
      expect(onlyLine(request(customerIn('FR'), '19.99', { taxCode: 'reduced' }))).toEqual({
        taxable: '19.99',
        tax: '1.10',
        rate: '5.5',
        reason: 'reduced_rated',
        taxes: ['FR vat 5.5% 1.10'],
      });
    });

    it('charges the standard rate on a reduced line where there is no reduced rate (Denmark)', () => {
      expect(onlyLine(request(customerIn('DK'), '100.00', { taxCode: 'reduced' }))).toMatchObject({
        tax: '25.00',
        reason: 'standard_rated',
      });
    });

    it('charges nothing on an exempt line, in the customer’s jurisdiction', () => {
      expect(onlyLine(request(customerIn('DE'), '100.00', { taxCode: 'exempt' }))).toEqual({
        taxable: '100.00',
        tax: '0.00',
        rate: '0',
        reason: 'exempt',
        taxes: ['DE vat 0% 0.00'],
      });
    });
  });

  describe('EU reverse charge', () => {
    const frenchBusiness = customerIn('FR', null, [{ type: 'eu_vat', value: 'FR40303265045', status: 'pending' }]);

    it('reverse-charges a German sale to a French business with a pending VAT number', () => {
      const result = calculateTax(request(frenchBusiness, '100.00'));
      expect(result.reverse_charge).toBe(true);
      expect(summary(result.lines[0])).toEqual({
        taxable: '100.00',
        tax: '0.00',
        rate: '0',
        reason: 'reverse_charge',
        taxes: ['FR vat 0% 0.00'],
      });
      expect(result.breakdown).toEqual([
        expect.objectContaining({ jurisdiction: 'FR', tax_type: 'vat', taxability_reason: 'reverse_charge' }),
      ]);
    });

    it('reverse-charges every line, exempt and reduced ones too', () => {
      const req = request(frenchBusiness, '100.00');
      const result = calculateTax({
        ...req,
        lines: [
          { key: 'a', amount: new Big('10.00'), tax_code: 'reduced' },
          { key: 'b', amount: new Big('20.00'), tax_code: 'exempt' },
        ],
      });
      expect(result.lines.map((l) => l.taxability_reason)).toEqual(['reverse_charge', 'reverse_charge']);
      expect(result.breakdown).toHaveLength(1);
      expect(money(result.breakdown[0].taxable_amount)).toBe('30.00');
    });

    it('charges French VAT when one of the customer’s tax IDs failed validation', () => {
      const result = calculateTax(request({ ...frenchBusiness, tax_id_invalid: true }, '100.00'));
      expect(result.reverse_charge).toBe(false);
      expect(summary(result.lines[0]).taxes).toEqual(['FR vat 20% 20.00']);
    });

    it('charges French VAT when the only VAT number is invalid', () => {
      const invalidOnly = customerIn('FR', null, [{ type: 'eu_vat', value: 'FR00000000000', status: 'invalid' }]);
      expect(calculateTax(request(invalidOnly, '100.00')).reverse_charge).toBe(false);
    });

    it('charges German VAT on a domestic business sale (DE → DE)', () => {
      const germanBusiness = customerIn('DE', null, [{ type: 'eu_vat', value: 'DE136695976', status: 'verified' }]);
      const result = calculateTax(request(germanBusiness, '100.00'));
      expect(result.reverse_charge).toBe(false);
      expect(summary(result.lines[0]).taxes).toEqual(['DE vat 19% 19.00']);
    });

    it('does not reverse-charge a sale from outside the EU (GB → FR): French VAT', () => {
      const result = calculateTax(request(frenchBusiness, '100.00', { seller: { country: 'GB', region: null } }));
      expect(result.reverse_charge).toBe(false);
      expect(summary(result.lines[0]).taxes).toEqual(['FR vat 20% 20.00']);
    });
  });

  describe('where the tax is due', () => {
    it('collects nothing in a country the table does not know (US)', () => {
      expect(onlyLine(request(customerIn('US', 'CA'), '100.00', { currency: 'USD' }))).toEqual({
        taxable: '100.00',
        tax: '0.00',
        rate: '0',
        reason: 'not_collecting',
        taxes: ['US none 0% 0.00'],
      });
    });

    it('taxes a customer of unknown location at the seller’s location', () => {
      const anonymous: TaxCustomer = { location: null, tax_ids: [], tax_id_invalid: false };
      expect(onlyLine(request(anonymous, '100.00')).taxes).toEqual(['DE vat 19% 19.00']);
    });

    it('charges GST 5 % and PST 7 % in British Columbia, two jurisdictions in the breakdown', () => {
      const result = calculateTax(request(customerIn('CA', 'BC'), '100.00', { currency: 'CAD' }));
      expect(summary(result.lines[0])).toEqual({
        taxable: '100.00',
        tax: '12.00',
        rate: '12',
        reason: 'standard_rated',
        taxes: ['CA gst 5% 5.00', 'CA-BC pst 7% 7.00'],
      });
      expect(result.breakdown.map((b) => [b.jurisdiction, b.region, b.tax_type, b.rate.toFixed(), money(b.tax_amount)])).toEqual([
        ['CA', null, 'gst', '5', '5.00'],
        ['CA-BC', 'BC', 'pst', '7', '7.00'],
      ]);
    });

    it('charges Ontario’s HST of 13 % instead of the GST', () => {
      expect(onlyLine(request(customerIn('CA', 'ON'), '100.00', { currency: 'CAD' })).taxes).toEqual(['CA-ON hst 13% 13.00']);
    });

    it('charges only the GST in a province without a rule of its own, or with no province', () => {
      expect(onlyLine(request(customerIn('CA', 'AB'), '100.00', { currency: 'CAD' })).taxes).toEqual(['CA gst 5% 5.00']);
      expect(onlyLine(request(customerIn('CA', null), '100.00', { currency: 'CAD' })).taxes).toEqual(['CA gst 5% 5.00']);
    });

    describe('Quebec: GST 5 % and QST 9.975 %, the QST rounded half up (Revenu Québec)', () => {
      const quebec = customerIn('CA', 'QC');
      const cad = { currency: 'CAD' };

      it('100.00 → GST 5.00, QST 9.975 → 9.98: 114.98, Revenu Québec’s own example', () => {
        expect(onlyLine(request(quebec, '100.00', cad))).toMatchObject({
          tax: '14.98',
          rate: '14.975',
          taxes: ['CA gst 5% 5.00', 'CA-QC qst 9.975% 9.98'],
        });
      });

      it('25.00 → QST 2.49375 → 2.49', () => {
        expect(onlyLine(request(quebec, '25.00', cad)).taxes).toEqual(['CA gst 5% 1.25', 'CA-QC qst 9.975% 2.49']);
      });

      it('300.00 → QST 29.925, a tie → 29.93', () => {
        expect(onlyLine(request(quebec, '300.00', cad)).taxes).toEqual(['CA gst 5% 15.00', 'CA-QC qst 9.975% 29.93']);
      });

      it('inclusive 114.98 → GST 114.98 × 5 / 114.975 = 5.0002… → 5.00, QST 9.9754… → 9.98, taxable 100.00', () => {
        expect(onlyLine(request(quebec, '114.98', { ...cad, behavior: 'inclusive' }))).toMatchObject({
          taxable: '100.00',
          tax: '14.98',
          taxes: ['CA gst 5% 5.00', 'CA-QC qst 9.975% 9.98'],
        });
      });
    });
  });

  describe('the rate in force on the request’s date', () => {
    it.each([
      ['2024-08-31', '24'],
      ['2024-09-01', '25.5'],
      // 23:30 at UTC−2 on 31 August is 01:30 UTC on 1 September.
      ['2024-08-31T23:30:00-02:00', '25.5'],
      ['2024-09-01T01:30:00+02:00', '24'],
    ])('Finland on %s: %s %%', (date, rate) => {
      expect(onlyLine(request(customerIn('FI'), '100.00', { date })).rate).toBe(rate);
    });

    it.each([
      ['2025-06-30', '22', '22.00'],
      ['2025-07-01', '24', '24.00'],
    ])('Estonia on %s: %s %%', (date, rate, tax) => {
      expect(onlyLine(request(customerIn('EE'), '100.00', { date }))).toMatchObject({ rate, tax });
    });

    it('refuses a date before the table’s coverage', () => {
      expect(() => calculateTax(request(customerIn('DE'), '100.00', { date: '2020-12-31' }))).toThrow(
        expect.objectContaining({ code: 'tax.no_rate_in_force' }),
      );
    });

    it.each(['2026-02-30', '2026-01-15T10:00:00', '15/01/2026', ''])('refuses the date "%s"', (date) => {
      expect(() => calculateTax(request(customerIn('DE'), '100.00', { date }))).toThrow(
        expect.objectContaining({ code: 'tax.invalid_date' }),
      );
    });
  });

  describe('currencies without minor units', () => {
    const japan = customerIn('JP');
    const jpy = { currency: 'JPY', seller: { country: 'JP', region: null } };

    it('rounds to whole yen: 10 % of 1234 = 123.4 → 123', () => {
      expect(onlyLine(request(japan, '1234', jpy)).tax).toBe('123');
    });

    it('reduced 8 % of 1234 = 98.72 → 99', () => {
      expect(onlyLine(request(japan, '1234', { ...jpy, taxCode: 'reduced' }))).toMatchObject({
        tax: '99',
        reason: 'reduced_rated',
      });
    });

    it('takes 10 % out of 1100: tax 100, taxable 1000', () => {
      expect(onlyLine(request(japan, '1100', { ...jpy, behavior: 'inclusive' }))).toMatchObject({ taxable: '1000', tax: '100' });
    });
  });

  describe('per line, per jurisdiction, and the breakdown', () => {
    it('rounds each line on its own, never the total: 3 × 0.03 at 19 % is 3 × 0.01, not 0.09 × 19 % = 0.0171 → 0.02', () => {
      // 0.03 × 19 % = 0.0057 → 0.01 on each line.
      const req = request(customerIn('DE'), '0.03');
      const result = calculateTax({ ...req, lines: ['a', 'b', 'c'].map((key) => ({ ...req.lines[0], key })) });
      expect(result.lines.map((l) => money(l.tax_amount))).toEqual(['0.01', '0.01', '0.01']);
      expect(money(result.breakdown[0].tax_amount)).toBe('0.03');
    });

    it('sums lines by jurisdiction, type, rate and reason, ordered by jurisdiction, type and rate', () => {
      const req = request(customerIn('DE'), '0');
      const lines = [
        { key: 'a', amount: new Big('100.00'), tax_code: 'standard' as const },
        { key: 'b', amount: new Big('10.00'), tax_code: 'reduced' as const },
        { key: 'c', amount: new Big('50.00'), tax_code: 'standard' as const },
        { key: 'd', amount: new Big('20.00'), tax_code: 'exempt' as const },
      ];
      const result = calculateTax({ ...req, lines });
      const rows = result.breakdown.map((b) => [
        b.jurisdiction,
        b.tax_type,
        b.rate.toFixed(),
        b.taxability_reason,
        money(b.taxable_amount),
        money(b.tax_amount),
      ]);
      expect(rows).toEqual([
        ['DE', 'vat', '0', 'exempt', '20.00', '0.00'],
        ['DE', 'vat', '7', 'reduced_rated', '10.00', '0.70'],
        ['DE', 'vat', '19', 'standard_rated', '150.00', '28.50'],
      ]);
    });
  });
});
