import { setImmediate as nextTurn } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import type { InvoiceAddress, InvoiceDocumentInput, InvoiceParties } from './invoice-document';

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MUTED = '#555555';

/** Columns of the lines table: x and width, on an A4 page (595 pt wide) with 50 pt margins. */
const COLUMNS = { description: { x: MARGIN, width: 255 }, quantity: { x: 310, width: 55 }, unit: { x: 370, width: 85 }, amount: { x: 460, width: 85 } };
const RIGHT_EDGE = 545;

/**
 * The invoice as a PDF: the seller, the customer's billing details, the number (or DRAFT), the
 * dates, each line with its service period, quantity, unit amount and amount, the discounts, the
 * tax breakdown by jurisdiction and rate, the totals, and the credit notes issued against it.
 *
 * Set in the PDF standard fonts (Helvetica), which cover Latin-1 and the Windows-1252 extras such
 * as €; any other character prints as `?`. Money is printed as the invoice's decimal strings, in
 * the invoice's currency, never recomputed. The document's dates are the invoice's, so the same
 * invoice renders to the same text.
 */
export async function renderInvoicePdf(invoice: InvoiceDocumentInput, parties: InvoiceParties): Promise<Buffer> {
  const createdAt = new Date(invoice.issued_at ?? invoice.created_at);
  const info = { Title: `Invoice ${invoice.number ?? 'DRAFT'}`, Author: printable(parties.seller.name), Subject: invoice.id, CreationDate: createdAt, ModDate: createdAt };
  return renderPdf(info, (doc) => new InvoiceLayout(doc, invoice, parties).draw());
}

/** An A4 document with 50 pt margins, drawn by `draw`, as bytes. */
export async function renderPdf(info: PDFKit.DocumentInfo, draw: (doc: PDFKit.PDFDocument) => Promise<void>): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  await draw(doc);
  doc.end();
  return done;
}

/** Lines set between two turns of the event loop: the largest invoice (250 lines) does not hold other requests up while it is set. */
const LINES_PER_TURN = 5;

class InvoiceLayout {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly invoice: InvoiceDocumentInput,
    private readonly parties: InvoiceParties,
  ) {}

  async draw(): Promise<void> {
    this.header();
    this.addresses();
    await this.lines();
    this.discounts();
    this.taxes();
    this.totals();
    this.creditNotes();
    this.footer();
  }

  private header(): void {
    const { doc, invoice } = this;
    doc.font(BOLD).fontSize(18).text(printable(this.parties.seller.name), MARGIN, MARGIN, { width: 300 });
    doc.font(BOLD).fontSize(18).text(invoice.number === null ? 'DRAFT' : 'Invoice', 350, MARGIN, { width: RIGHT_EDGE - 350, align: 'right' });
    doc.font(FONT).fontSize(10);
    const facts: [string, string][] = [
      ['Invoice number', invoice.number ?? 'DRAFT (not finalised)'],
      ['Status', invoice.status.replace('_', ' ')],
      ['Issued', invoice.issued_at ? day(invoice.issued_at) : 'not issued'],
      ['Due', invoice.due_at ? day(invoice.due_at) : 'on receipt'],
      ...(invoice.period_start && invoice.period_end ? [['Period', `${day(invoice.period_start)} – ${day(invoice.period_end)}`] as [string, string]] : []),
      ['Currency', invoice.currency],
    ];
    let y = MARGIN + 30;
    for (const [label, value] of facts) {
      doc.fillColor(MUTED).text(label, 350, y, { width: 80 });
      doc.fillColor('black').text(printable(value), 430, y, { width: RIGHT_EDGE - 430, align: 'right' });
      y += 14;
    }
    if (!invoice.livemode) doc.fillColor(MUTED).text('Sandbox: not a real invoice', MARGIN, MARGIN + 30).fillColor('black');
    doc.y = y + 10;
  }

  private addresses(): void {
    const { doc } = this;
    const top = doc.y;
    doc.font(BOLD).fontSize(10).text('Bill to', MARGIN, top);
    doc.font(FONT);
    const customer = this.parties.customer;
    const lines = customer ? [customer.name, customer.email, ...addressLines(customer.address), customer.id] : [this.invoice.customer_id];
    for (const line of lines.filter((l): l is string => !!l)) doc.text(printable(line), MARGIN, doc.y, { width: 280 });
    if (this.invoice.description) {
      doc.moveDown(0.5).fillColor(MUTED).text(printable(this.invoice.description), MARGIN, doc.y, { width: RIGHT_EDGE - MARGIN }).fillColor('black');
    }
    doc.y += 20;
  }

  private async lines(): Promise<void> {
    const { doc, invoice } = this;
    this.tableHeader();
    for (const [i, line] of invoice.lines.entries()) {
      if (i > 0 && i % LINES_PER_TURN === 0) await nextTurn();
      const description = printable(line.description ?? line.code ?? line.id) + (line.proration ? ' (proration)' : '');
      const period = line.period_start && line.period_end ? `${day(line.period_start)} – ${day(line.period_end)}` : '';
      doc.font(FONT).fontSize(10);
      const height = doc.heightOfString(description, { width: COLUMNS.description.width }) + 14;
      this.room(height);
      const y = doc.y;
      doc.text(description, COLUMNS.description.x, y, { width: COLUMNS.description.width });
      doc.fontSize(8).fillColor(MUTED).text(period, COLUMNS.description.x, doc.y, { width: COLUMNS.description.width }).fillColor('black').fontSize(10);
      const after = doc.y;
      doc.text(line.quantity, COLUMNS.quantity.x, y, { width: COLUMNS.quantity.width, align: 'right' });
      doc.text(line.unit_amount ?? '', COLUMNS.unit.x, y, { width: COLUMNS.unit.width, align: 'right' });
      doc.text(line.amount, COLUMNS.amount.x, y, { width: COLUMNS.amount.width, align: 'right' });
      doc.y = Math.max(after, y + 14) + 4;
    }
    this.rule();
  }

  private tableHeader(): void {
    const { doc } = this;
    this.room(30);
    const y = doc.y;
    doc.font(BOLD).fontSize(10);
    doc.text('Description', COLUMNS.description.x, y, { width: COLUMNS.description.width });
    doc.text('Qty', COLUMNS.quantity.x, y, { width: COLUMNS.quantity.width, align: 'right' });
    doc.text('Unit amount', COLUMNS.unit.x, y, { width: COLUMNS.unit.width, align: 'right' });
    doc.text(`Amount (${this.invoice.currency})`, COLUMNS.amount.x - 15, y, { width: COLUMNS.amount.width + 15, align: 'right' });
    doc.font(FONT);
    doc.y = y + 14;
    this.rule();
  }

  private discounts(): void {
    const { discounts } = this.invoice;
    if (discounts.length === 0) return;
    this.section('Discounts');
    for (const discount of discounts) this.pair(printable(`${discount.coupon_id} (${discount.level})`), negative(discount.amount));
  }

  private taxes(): void {
    if (this.invoice.tax_breakdown.length === 0) return;
    this.section('Tax');
    for (const tax of this.invoice.tax_breakdown) {
      const rate = `${tax.rate}%`;
      const where = tax.region ? `${tax.jurisdiction} (${tax.region})` : tax.jurisdiction;
      this.pair(printable(`${tax.tax_type.toUpperCase()} ${rate}, ${where}, on ${tax.taxable_amount}`), tax.tax_amount);
    }
  }

  private totals(): void {
    const { invoice } = this;
    this.doc.moveDown(0.5);
    this.pair('Subtotal', invoice.subtotal);
    this.pair('Discount', negative(invoice.discount));
    this.pair('Tax', invoice.tax);
    this.pair(`Total (${invoice.currency})`, invoice.total, true);
    this.pair('Amount paid', invoice.amount_paid);
    this.pair(`Amount due (${invoice.currency})`, invoice.amount_due, true);
  }

  private creditNotes(): void {
    if (this.invoice.credit_notes.length === 0) return;
    this.section('Credit notes');
    for (const note of this.invoice.credit_notes) {
      const label = [note.number ?? note.id, day(note.created_at), note.reason, note.memo].filter((part): part is string => !!part).join(', ');
      this.pair(printable(label), negative(note.amount));
    }
  }

  private footer(): void {
    this.doc.moveDown(2).font(FONT).fontSize(8).fillColor(MUTED).text(`${this.invoice.id}`, MARGIN, this.doc.y, { width: RIGHT_EDGE - MARGIN }).fillColor('black');
  }

  private section(title: string): void {
    this.room(40);
    this.doc.moveDown(0.5).font(BOLD).fontSize(10).text(title, MARGIN, this.doc.y).font(FONT);
  }

  /** A label and an amount on one row, the amount right-aligned in the amount column. */
  private pair(label: string, amount: string, bold = false): void {
    const { doc } = this;
    doc.font(bold ? BOLD : FONT).fontSize(10);
    const height = doc.heightOfString(label, { width: 390 });
    this.room(height + 4);
    const y = doc.y;
    doc.text(label, 70, y, { width: 380 });
    doc.text(amount, COLUMNS.amount.x, y, { width: COLUMNS.amount.width, align: 'right' });
    doc.font(FONT);
    doc.y = y + Math.max(height, 12) + 2;
  }

  private rule(): void {
    const { doc } = this;
    doc.moveTo(MARGIN, doc.y).lineTo(RIGHT_EDGE, doc.y).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.y += 6;
  }

  /** A new page when fewer than `height` points are left on this one. */
  private room(height: number): void {
    const { doc } = this;
    if (doc.y + height > doc.page.height - MARGIN) {
      doc.addPage();
      doc.y = MARGIN;
    }
  }
}

export const day = (timestamp: string): string => timestamp.slice(0, 10);

const negative = (amount: string): string => (amount.startsWith('-') || /^0(\.0*)?$/.test(amount) ? amount : `-${amount}`);

export function addressLines(address: InvoiceAddress | null): string[] {
  if (!address) return [];
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.line1, cityLine, address.region, address.country].filter((part): part is string => !!part);
}

/** Windows-1252's printable characters beyond Latin-1, which the standard fonts can show. */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** The text with every character the standard fonts cannot show (and every control character) as `?`. */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const latin1 = (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff);
    out += latin1 || WIN_ANSI_EXTRAS.has(char) ? char : '?';
  }
  return out;
}
