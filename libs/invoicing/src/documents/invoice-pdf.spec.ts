import type { InvoiceParties } from './invoice-document';
import { printable, renderInvoicePdf } from './invoice-pdf';
import { pdfText } from './testing/pdf-text';
import { sampleInvoice, sampleLine as line } from './testing/sample-invoice';

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
      'cpn_WELCOME10 (subscription) -4.00',
      'VAT 19%, DE, on 48.50 9.22',
      'Subtotal 52.50',
      'Total (EUR) 57.72',
      'Amount paid 20.00',
      'Amount due (EUR) 37.72',
      'TALLY-000042-CN-01, 2026-05-10, order_change -5.00',
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
