import type { InvoiceDocumentInput, InvoiceParties } from '../documents/invoice-document';
import { addressLines, day, printable, renderPdf } from '../documents/invoice-pdf';
import type { CreditNoteResource } from './credit-note.view';

const MARGIN = 50;
const RIGHT_EDGE = 545;
const BOLD = 'Helvetica-Bold';
const FONT = 'Helvetica';
const MUTED = '#555555';

const OUTCOMES: Record<CreditNoteResource['outcome']['kind'], string> = {
  none: 'Deducted from the amount due',
  refund: 'Refunded to the original payment method',
  credit_balance: 'Credited to the customer balance',
  pending_manual: 'Refund failed; to be settled by hand',
};

/**
 * A credit note as a PDF, as invoices are: the seller, the customer's billing details, its number,
 * date, invoice and reason, each line credited with the tax in it, the totals and what becomes of
 * the amount. Money as the credit note's decimal strings, never recomputed.
 */
export function renderCreditNotePdf(note: CreditNoteResource, invoice: InvoiceDocumentInput, parties: InvoiceParties): Promise<Buffer> {
  const createdAt = new Date(note.created_at);
  const info = { Title: `Credit note ${note.number}`, Author: printable(parties.seller.name), Subject: note.id, CreationDate: createdAt, ModDate: createdAt };
  return renderPdf(info, async (doc) => {
    doc.font(BOLD).fontSize(18).text(printable(parties.seller.name), MARGIN, MARGIN, { width: 300 });
    doc.font(BOLD).fontSize(18).text('Credit note', 350, MARGIN, { width: RIGHT_EDGE - 350, align: 'right' });
    doc.font(FONT).fontSize(10);
    const facts: [string, string][] = [
      ['Number', note.number],
      ['Date', day(note.created_at)],
      ['Invoice', invoice.number ?? invoice.id],
      ['Reason', note.reason.replace(/_/g, ' ')],
      ['Currency', note.currency],
    ];
    let y = MARGIN + 30;
    for (const [label, value] of facts) {
      doc.fillColor(MUTED).text(label, 320, y, { width: 70 }).fillColor('black').text(printable(value), 390, y, { width: RIGHT_EDGE - 390, align: 'right' });
      y += 14;
    }
    doc.font(BOLD).text('Credit to', MARGIN, MARGIN + 30).font(FONT);
    const customer = parties.customer;
    const to = customer ? [customer.name, customer.email, ...addressLines(customer.address), customer.id] : [note.customer_id];
    for (const line of to.filter((l): l is string => !!l)) doc.text(printable(line), MARGIN, doc.y, { width: 280 });
    doc.y = Math.max(doc.y, y) + 20;
    const row = (label: string, tax: string, amount: string, font = FONT) => {
      const top = doc.y;
      doc.font(font).text(printable(label), MARGIN, top, { width: 300 });
      const after = doc.y;
      doc.text(tax, 360, top, { width: 85, align: 'right' }).text(amount, 460, top, { width: 85, align: 'right' });
      doc.y = Math.max(after, top + 12) + 4;
    };
    row('Description', 'Tax', `Amount (${note.currency})`, BOLD);
    for (const line of note.lines) row(invoice.lines.find((l) => l.id === line.line_id)?.description ?? line.line_id, line.tax_amount, line.amount);
    doc.moveDown(0.5);
    row('Total credited', note.tax_amount, note.amount, BOLD);
    doc.moveDown(1).font(FONT).text(printable(OUTCOMES[note.outcome.kind]), MARGIN, doc.y, { width: RIGHT_EDGE - MARGIN });
    if (note.memo) doc.fillColor(MUTED).text(printable(note.memo), MARGIN, doc.y, { width: RIGHT_EDGE - MARGIN }).fillColor('black');
    doc.moveDown(2).fontSize(8).fillColor(MUTED).text(note.id, MARGIN, doc.y, { width: RIGHT_EDGE - MARGIN }).fillColor('black');
  });
}
