import { CreditNoteIssuance } from './credit-notes/credit-note-issuance';
import { Inject, Injectable } from '@nestjs/common';
import type { IdGenerator, Metadata } from '@tally/kernel';
import { customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import type { TaxBehavior } from '@tally/tax';
import { manualLine, type LineInput } from './domain/invoice-line-input';
import type { CreateInvoice, InvoiceState, IssueCreditNote } from './domain/invoice.decider';
import type { InvoiceLineData } from './domain/invoice.events';
import { CREDIT_NOTE_ID_PREFIX, INVOICE_ID_PREFIX, INVOICE_LINE_ID_PREFIX, invoiceAggregate } from './invoice.aggregate';
import { InvoiceFinalizer } from './invoice-finalizer';
import type { InvoiceResource } from './invoice.view';

/** An invoice as a command left it, with the revision for its ETag. */
export interface InvoiceWritten {
  invoice: InvoiceResource;
  revision: number;
}

/** A line as a request states it: no id (the handler gives one). */
export type LineRequest = Omit<LineInput, 'line_id'>;

export interface CreateInvoiceInput {
  customer_id: string;
  currency: string;
  auto_charge: boolean;
  tax_behavior: TaxBehavior;
  description: string | null;
  due_at: string | null;
  days_until_due: number | null;
  metadata: Metadata;
  lines: LineRequest[];
}

/** A credit note as a request states it: by amount or by lines. */
export type CreditNoteRequest = Omit<IssueCreditNote['data'], 'invoice_id' | 'credit_note_id' | 'now'>;

export const written = ({ resource, revision }: CommandOutcome<InvoiceState, InvoiceResource>): InvoiceWritten => ({ invoice: resource!, revision });

/** The invoice operations that take more than one command: ids given, the customer or the draft read, tax computed. */
@Injectable()
export class InvoiceDrafts {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    private readonly finalizer: InvoiceFinalizer,
    private readonly creditNotes: CreditNoteIssuance,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** `POST /v1/invoices`: a one-off draft for a customer of the tenant. */
  async create(context: RequestContext, input: CreateInvoiceInput): Promise<InvoiceWritten> {
    const { lines: requested, ...fields } = input;
    const lines = requested.map((line, i) => manualLine({ ...line, line_id: this.ids.next(INVOICE_LINE_ID_PREFIX) }, input.currency, `lines[${i}]`));
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, input.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(input.customer_id);
    // The invoice lives on its customer's test clock, if any.
    const onClock = onClockOf(context, customer.clockId);
    const id = this.ids.next(INVOICE_ID_PREFIX);
    const command = (now: string): CreateInvoice => ({
      type: 'CreateInvoice',
      data: { invoice_id: id, ...fields, subscription_id: null, billing_reason: 'manual', period_start: null, period_end: null, lines, discounts: [], now },
    });
    return written(await this.commands.send(invoiceAggregate, id, command, onClock, { newStream: true }));
  }

  async addLine(context: RequestContext, invoiceId: string, line: LineRequest): Promise<InvoiceWritten> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    const priced: InvoiceLineData = manualLine({ ...line, line_id: this.ids.next(INVOICE_LINE_ID_PREFIX) }, state.currency);
    return written(await this.commands.send(invoiceAggregate, invoiceId, { type: 'AddInvoiceLine', data: { invoice_id: invoiceId, line: priced } }, context));
  }

  /** A draft's discounts and tax as they would be now, shown on the draft; nothing is finalised. */
  async recomputeTax(context: RequestContext, invoiceId: string): Promise<InvoiceWritten> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    const { state } = loaded;
    if (state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    const placeholder = { line_ids: [], totals: undefined! };
    const now = (await this.clocks.now(cell, loaded.clockId ?? context.clockId)).toISOString();
    const { line_ids, totals } = state.status === 'draft' ? await this.finalizer.totalsOf(context, state, now) : placeholder;
    return written(await this.commands.send(invoiceAggregate, invoiceId, { type: 'RecordInvoiceTax', data: { invoice_id: invoiceId, line_ids, totals } }, context));
  }

  async issueCreditNote(context: RequestContext, invoiceId: string, note: CreditNoteRequest): Promise<InvoiceWritten> {
    const creditNoteId = this.ids.next(CREDIT_NOTE_ID_PREFIX);
    const command = (now: string): IssueCreditNote => ({ type: 'IssueCreditNote', data: { invoice_id: invoiceId, credit_note_id: creditNoteId, ...note, now } });
    const { resource, revision } = await this.creditNotes.issue(context, invoiceId, creditNoteId, command);
    return { invoice: resource!, revision };
  }
}
