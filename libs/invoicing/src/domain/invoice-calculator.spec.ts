import Big from 'big.js';
import { calculateTax, type TaxBehavior, type TaxCustomer, type TaxLocation } from '@tally/tax/published';
import { applyDiscounts, type Discount } from './discounts';
import { totalInvoice } from './invoice-calculator';
import type { InvoiceLine } from './invoice-lines';

const PERIOD = { period_start: '2026-05-01T00:00:00.000Z', period_end: '2026-06-01T00:00:00.000Z' };
const line = (code: string, amount: string): InvoiceLine => ({ code, description: code, quantity: new Big(1), unit_amount: amount, amount: new Big(amount), tiers: [], tax_code: 'standard', price_version: 1, ...PERIOD });
const seller: TaxLocation = { country: 'DE', region: null };
const consumerIn = (country: string): TaxCustomer => ({ location: { country, region: null }, tax_ids: [], tax_id_invalid: false });

/** The whole calculation as the preview runs it: discounts, then tax on the discounted lines. */
function invoice(behavior: TaxBehavior, lines: InvoiceLine[], discounts: Discount[], customer = consumerIn('DE')) {
  const discounted = applyDiscounts(lines, discounts, 'EUR');
  const taxOf = (amounts: Big[]) =>
    calculateTax({ currency: 'EUR', date: PERIOD.period_start, behavior, seller, customer, lines: lines.map((l, i) => ({ key: l.code, amount: amounts[i], tax_code: l.tax_code })) });
  const tax = taxOf(discounted.lines.map((l) => l.amount_after));
  const taxBeforeDiscounts = behavior === 'inclusive' ? taxOf(lines.map((l) => l.amount)) : null;
  const totals = totalInvoice({ behavior, lines, discounted, tax, taxBeforeDiscounts });
  const money = (b: Big) => b.toFixed(2);
  return {
    subtotal: money(totals.subtotal),
    discount: money(totals.discount),
    tax: money(totals.tax),
    total: money(totals.total),
    lines: totals.lines.map((l) => [l.code, money(l.amount), money(l.amount_excluding_tax), money(l.discount_amount), money(l.tax_amount), money(l.total)]),
  };
}

const tenPercent: Discount = { coupon_id: 'c', level: 'subscription', percent_off: new Big(10), amount_off: null, components: null };

describe('totalInvoice', () => {
  it('exclusive: tax on the discounted lines, added on top', () => {
    // 100.00 + 19 % = 119.00; with 10 % off, 90.00 + 17.10 = 107.10.
    expect(invoice('exclusive', [line('base', '100.00')], [])).toMatchObject({ subtotal: '100.00', discount: '0.00', tax: '19.00', total: '119.00' });
    expect(invoice('exclusive', [line('base', '100.00')], [tenPercent])).toMatchObject({ subtotal: '100.00', discount: '10.00', tax: '17.10', total: '107.10' });
  });

  it('inclusive: the tax is taken out of the discounted price, and subtotal and discount are stated without tax', () => {
    // 119.00 including 19 %: 100.00 + 19.00. With 10 % off: 107.10 = 90.00 + 17.10, so the discount without tax is 10.00.
    expect(invoice('inclusive', [line('base', '119.00')], [])).toMatchObject({ subtotal: '100.00', discount: '0.00', tax: '19.00', total: '119.00' });
    expect(invoice('inclusive', [line('base', '119.00')], [tenPercent])).toEqual({
      subtotal: '100.00',
      discount: '10.00',
      tax: '17.10',
      total: '107.10',
      lines: [['base', '119.00', '100.00', '10.00', '17.10', '107.10']],
    });
  });

  it('inclusive with an inexact net: each line rounds its own tax, and the parts still add up', () => {
    // 10.00 incl. 19 %: tax 1.60 (10 × 19/119 = 1.5966…), net 8.40; 3 lines, one 10 % off each.
    const result = invoice('inclusive', [line('a', '10.00'), line('b', '10.00'), line('c', '10.00')], [tenPercent]);
    // 9.00 incl. 19 %: tax 1.44 (1.4369…), net 7.56; discount without tax 8.40 − 7.56 = 0.84.
    expect(result.lines[0]).toEqual(['a', '10.00', '8.40', '0.84', '1.44', '9.00']);
    expect(result).toMatchObject({ subtotal: '25.20', discount: '2.52', tax: '4.32', total: '27.00' });
  });

  it('charges no tax on a reverse-charged cross-border B2B sale', () => {
    const business: TaxCustomer = { location: { country: 'FR', region: null }, tax_ids: [{ type: 'eu_vat', value: 'FR40303265045', status: 'verified' }], tax_id_invalid: false };
    expect(invoice('exclusive', [line('base', '100.00')], [], business)).toMatchObject({ tax: '0.00', total: '100.00' });
    expect(invoice('exclusive', [line('base', '100.00')], [], { ...business, tax_id_invalid: true })).toMatchObject({ tax: '20.00', total: '120.00' });
  });

  it('charges no tax when none is calculated (no tax origin set)', () => {
    const lines = [line('base', '49.00')];
    const discounted = applyDiscounts(lines, [tenPercent], 'EUR');
    const totals = totalInvoice({ behavior: 'inclusive', lines, discounted, tax: null, taxBeforeDiscounts: null });
    expect([totals.subtotal, totals.discount, totals.tax, totals.total].map((b) => b.toFixed(2))).toEqual(['49.00', '4.90', '0.00', '44.10']);
    expect(totals.lines[0].taxability_reason).toBeNull();
  });
});
