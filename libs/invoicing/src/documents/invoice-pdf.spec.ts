import type { InvoiceDocumentInput, InvoiceDocumentLine, InvoiceParties } from './invoice-document';
import { printable, renderInvoicePdf } from './invoice-pdf';
import { pdfText } from './testing/pdf-text';

const line = (id: string, description: string, amount: string, extra: Partial<InvoiceDocumentLine> = {}): InvoiceDocumentLine => ({
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
    line('il_seats', 'Seats × 5', '40.00', { quantity: '5', unit_amount: '8.00', discount_amount: '4.00', tax_amount: '6.84' }),
    line('il_storage', 'Storage, 120 GB', '12.50', { quantity: '120', unit_amount: '0.104166666667', tax_amount: '2.38' }),
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

const parties: InvoiceParties = {
  seller: { name: 'Acme GmbH' },
  customer: {
    id: 'cus_01JTESTCUSTOMER000000000001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    address: { line1: '1 Analytical Row', city: 'London', region: null, postal_code: 'N1', country: 'GB' },
  },
};

/** Whitespace as one space, so that assertions do not depend on how the reader joins the text's runs. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the invoice PDF', () => {
  it('is a PDF that shows the seller, the customer, the number, the dates, the lines, discounts, tax, totals and credit notes', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice(), parties);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = flat(await pdfText(pdf));
    for (const expected of [
      'Acme GmbH',
      'TALLY-000042',
      'Ada Lovelace',
      'ada@example.com',
      '1 Analytical Row',
      'N1 London',
      'Issued 2026-05-01',
      'Due 2026-05-31',
      'Seats × 5',
      'Storage, 120 GB',
      '2026-05-01 – 2026-06-01',
      '0.104166666667',
      'WELCOME10 (subscription) -4.00',
      'VAT 19%, DE, on 48.50 9.22',
      'Subtotal 52.50',
      'Total (EUR) 57.72',
      'Amount paid 20.00',
      'Amount due (EUR) 37.72',
      'TALLY-000042-CN-01, 2026-05-10, service_outage -5.00',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('says DRAFT when the invoice has no number yet, and names the customer by id when the customer is gone', async () => {
    const text = flat(await pdfText(await renderInvoicePdf(sampleInvoice({ number: null, status: 'draft', issued_at: null, credit_notes: [] }), { seller: parties.seller, customer: null })));
    expect(text).toContain('DRAFT');
    expect(text).toContain('not issued');
    expect(text).toContain('cus_01JTESTCUSTOMER000000000001');
    expect(text).not.toContain('Credit notes');
  });

  it('runs onto further pages when the lines do not fit on one', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => line(`il_${i}`, `Line number ${i}`, '1.00'));
    const text = flat(await pdfText(await renderInvoicePdf(sampleInvoice({ lines }), parties)));
    expect(text).toContain('Line number 0');
    expect(text).toContain('Line number 79');
    expect(text).toContain('Amount due (EUR) 37.72');
    expect(text).toMatch(/of [2-9] --/);
  });

  it('renders the same invoice to the same bytes', async () => {
    expect((await renderInvoicePdf(sampleInvoice(), parties)).equals(await renderInvoicePdf(sampleInvoice(), parties))).toBe(true);
  });

  it('prints what the standard fonts cannot show as ?', () => {
    expect(printable('Zoë € 東京\u0007')).toBe('Zoë € ???');
  });
});
