import type { InvoiceDocumentInput, InvoiceDocumentLine } from '../invoice-document';

/** An invoice as the read model holds it, for tests of its documents. */
export const sampleLine = (id: string, description: string, amount: string, extra: Partial<InvoiceDocumentLine> = {}): InvoiceDocumentLine => ({
  id,
  code: id,
  description,
  quantity: '1',
  unit_amount: amount,
  amount,
  period_start: '2026-05-01T00:00:00.000Z',
  period_end: '2026-06-01T00:00:00.000Z',
  proration: false,
  discount_amount: '0.00',
  tax_amount: '0.00',
  tax_rate: '19',
  ...extra,
});

/** A finalised, partly paid invoice with a discount, tax and a credit note. */
export const sampleInvoice = (overrides: Partial<InvoiceDocumentInput> = {}): InvoiceDocumentInput => ({
  id: 'inv_01JTESTINVOICE0000000000001',
  object: 'invoice',
  number: 'TALLY-000042',
  customer_id: 'cus_01JTESTCUSTOMER000000000001',
  subscription_id: 'sub_01JTESTSUBSCRIPTION00000001',
  currency: 'EUR',
  status: 'partially_paid',
  description: 'Team plan, May 2026',
  period_start: '2026-05-01T00:00:00.000Z',
  period_end: '2026-06-01T00:00:00.000Z',
  issued_at: '2026-05-01T10:00:00.000Z',
  due_at: '2026-05-31T10:00:00.000Z',
  lines: [
    sampleLine('il_seats', 'Seats × 5', '40.00', { quantity: '5', unit_amount: '8.00', discount_amount: '4.00', tax_amount: '6.84' }),
    sampleLine('il_storage', 'Storage, 120 GB', '12.50', { quantity: '120', unit_amount: '0.104166666667', tax_amount: '2.38' }),
  ],
  subtotal: '52.50',
  discount: '4.00',
  tax: '9.22',
  total: '57.72',
  amount_paid: '20.00',
  amount_due: '37.72',
  tax_breakdown: [{ jurisdiction: 'DE', country: 'DE', region: null, tax_type: 'vat', rate: '19', taxability_reason: 'standard_rated', taxable_amount: '48.50', tax_amount: '9.22' }],
  discounts: [{ coupon_id: 'coupon_01J', code: 'WELCOME10', level: 'subscription', amount: '4.00' }],
  credit_notes: [{ id: 'cn_1', number: 'TALLY-000042-CN-01', amount: '5.00', reason: 'service_outage', memo: null, lines: [{ line_id: 'il_storage', amount: '5.00' }], created_at: '2026-05-10T00:00:00.000Z' }],
  livemode: true,
  created_at: '2026-05-01T10:00:00.000Z',
  ...overrides,
});

