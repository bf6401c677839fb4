import { setImmediate as nextTurn } from 'node:timers/promises';
import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError, type Clock } from '@tally/kernel';
import { CellRegistry, CLOCK, type RequestContext, type SignedLink } from '@tally/cells';
import { Clocks, ScopedReads } from '@tally/runtime';
import { customerView, type CustomerResource } from '@tally/customers';
import type { After, SortSpec } from '@tally/readstore';
import { recognitionScheduleSteps, type RecognitionRowKey, type RecognitionSchedule } from '../domain/recognition-schedule';
import { recognitionInputOf } from './invoice-recognition';
import { INVOICES_COLLECTION, type InvoiceDocumentInput, type InvoiceParties } from './invoice-document';
import { renderInvoicePdf } from './invoice-pdf';
import { PdfLinks } from './pdf-links';

export const invoiceNotFound = (id: string): DomainError => DomainError.notFound('invoice.not_found', `No invoice ${id}`);

/** A signed, short-lived link to the PDF of an invoice of the request's tenant and environment. */
export class GetInvoicePdfLinkQuery extends Query<SignedLink & { invoice_id: string }> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
  ) {
    super();
  }
}

/** The PDF a signed link names, for whoever holds the link (no API key). */
export class RenderInvoicePdfQuery extends Query<{ pdf: Buffer; filename: string }> {
  constructor(
    readonly invoiceId: string,
    /** The link's query string: tenant, environment, expires, signature. */
    readonly link: Record<string, unknown>,
  ) {
    super();
  }
}

/** A page of the schedule's rows: `limit` of them after the row a `cursor` of the previous page names. */
export interface RecognitionRowsPage {
  limit: number;
  cursor: string | undefined;
}

export class GetRecognitionScheduleQuery extends Query<RecognitionScheduleResource> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly page: RecognitionRowsPage,
  ) {
    super();
  }
}

export interface RecognitionScheduleResource extends Omit<RecognitionSchedule, 'next'> {
  object: 'recognition_schedule';
  invoice_id: string;
  currency: string;
  /** The moment `recognized` is relative to: the customer's test clock's time, else the system clock's. */
  as_of: string;
  has_more: boolean;
  next_cursor: string | null;
}

/** The rows of a schedule in their one order, as its cursors name it. */
const ROW_ORDER: SortSpec = { field: 'recognition_schedule', direction: 'asc' };

/** The invoice of the read model, or `invoice.not_found` (also for another tenant's or environment's). */
export async function invoiceOf(reads: ScopedReads, context: RequestContext, invoiceId: string): Promise<InvoiceDocumentInput> {
  const found = await reads.retrieve<InvoiceDocumentInput>(context, INVOICES_COLLECTION, invoiceId);
  if (!found) throw invoiceNotFound(invoiceId);
  return found.resource;
}

@QueryHandler(GetInvoicePdfLinkQuery)
export class GetInvoicePdfLinkHandler implements IQueryHandler<GetInvoicePdfLinkQuery, SignedLink & { invoice_id: string }> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly links: PdfLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, invoiceId }: GetInvoicePdfLinkQuery): Promise<SignedLink & { invoice_id: string }> {
    const invoice = await invoiceOf(this.reads, context, invoiceId);
    // Link lifetimes are security, not billing: the system clock, even for a customer on a test clock.
    return { invoice_id: invoice.id, ...this.links.sign('invoice', context, invoice.id, this.clock.now()) };
  }
}

@QueryHandler(RenderInvoicePdfQuery)
export class RenderInvoicePdfHandler implements IQueryHandler<RenderInvoicePdfQuery, { pdf: Buffer; filename: string }> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly links: PdfLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ invoiceId, link }: RenderInvoicePdfQuery): Promise<{ pdf: Buffer; filename: string }> {
    const opened = await this.links.open('invoice', invoiceId, link, this.clock.now());
    if (!opened) throw invoiceNotFound(invoiceId);
    const invoice = await invoiceOf(this.reads, opened.context, invoiceId);
    const parties = await partiesOf(this.reads, opened.context, opened.seller, invoice.customer_id);
    return { pdf: await renderInvoicePdf(invoice, parties), filename: pdfFilename(invoice.number ?? invoice.id) };
  }
}

/** Who a document is from and to: the tenant, and the customer as the read model has it (null once deleted). */
export async function partiesOf(reads: ScopedReads, context: RequestContext, sellerName: string, customerId: string): Promise<InvoiceParties> {
  const customer = await reads.retrieve<CustomerResource>(context, customerView.collection, customerId);
  const { resource } = customer ?? {};
  return { seller: { name: sellerName }, customer: resource ? { id: resource.id, name: resource.name, email: resource.email, address: resource.billing_address } : null };
}

/** A document's number as a file name. */
export const pdfFilename = (number: string): string => `${number.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;

@QueryHandler(GetRecognitionScheduleQuery)
export class GetRecognitionScheduleHandler implements IQueryHandler<GetRecognitionScheduleQuery, RecognitionScheduleResource> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly cells: CellRegistry,
    private readonly clocks: Clocks,
  ) {}

  async execute({ context, invoiceId, page }: GetRecognitionScheduleQuery): Promise<RecognitionScheduleResource> {
    const invoice = await invoiceOf(this.reads, context, invoiceId);
    // Bound to this invoice's schedule: another invoice's cursor is refused.
    const cursors = this.reads.cursorsFor(context, `recognition_schedule:${invoice.id}`);
    const order = { sort: ROW_ORDER };
    const after = page.cursor === undefined ? null : rowKeyOf(cursors.decode(page.cursor, order));
    const customer = await this.reads.retrieve<CustomerResource>(context, customerView.collection, invoice.customer_id);
    const now = await this.clocks.now(this.cells.cell(context.region), customer?.resource.test_clock ?? undefined);
    const steps = recognitionScheduleSteps(recognitionInputOf(invoice), now, { after, limit: page.limit });
    const { next, ...schedule } = await betweenOtherWork(steps);
    return {
      object: 'recognition_schedule',
      invoice_id: invoice.id,
      currency: invoice.currency,
      as_of: now.toISOString(),
      ...schedule,
      has_more: next !== null,
      next_cursor: next && cursors.encode(order, { value: `${next.date}|${next.line}`, id: next.credit_note_id ?? '' }),
    };
  }
}

/** The row a (verified) cursor of the schedule names. */
function rowKeyOf(after: After): RecognitionRowKey {
  const [date, line] = String(after.value).split('|');
  return { date, line: Number(line), credit_note_id: after.id === '' ? null : after.id };
}

/** Runs the schedule's steps with a turn of the event loop between them, so that other requests are served while a large one is worked out. */
async function betweenOtherWork<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

export const invoiceDocumentQueryHandlers = [GetInvoicePdfLinkHandler, RenderInvoicePdfHandler, GetRecognitionScheduleHandler];

