import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import Big from 'big.js';
import { derivedId, type IdGenerator, type Metadata } from '@tally/kernel';
import { customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, commandStep } from '@tally/runtime';
import type { TaxBehavior, TaxCode } from '@tally/tax';
import type { Discount } from './domain/discounts';
import { manualLine, type LineInput } from './domain/invoice-line-input';
import type { CreateInvoice, IssueCreditNote, UpdateInvoiceDraft } from './domain/invoice.decider';
import type { BillingReason, CreditNoteReason, InvoiceLineData } from './domain/invoice.events';
import { CREDIT_NOTE_ID_PREFIX, INVOICE_ID_PREFIX, INVOICE_LINE_ID_PREFIX, invoiceAggregate } from './invoice.aggregate';
import { InvoiceFinalizer, type InvoiceOutcome } from './invoice-finalizer';
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

/** `POST /v1/invoices`: a one-off draft for a customer of the tenant. */
export class CreateInvoiceCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly input: CreateInvoiceInput,
  ) {
    super();
  }
}

export class UpdateInvoiceCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly patch: Omit<UpdateInvoiceDraft['data'], 'invoice_id' | 'now'>,
    readonly expectedRevision: number | undefined,
  ) {
    super();
  }
}

export class AddInvoiceLineCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly line: LineRequest,
  ) {
    super();
  }
}

export class RemoveInvoiceLineCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly lineId: string,
  ) {
    super();
  }
}

/** Draft → open. With `number`: the number a crashed finalisation reserved (the invoice-numbering reaction sends it). */
export class FinalizeInvoiceCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly number?: string,
  ) {
    super();
  }
}

/** A draft's discounts and tax as they would be now, shown on the draft; nothing is finalised. */
export class RecomputeInvoiceTaxCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
  ) {
    super();
  }
}

/** How a void or a write-off treats a payment attempt still open: a request is refused, a policy cancels it (see VoidInvoice). */
export interface OpenPaymentHandling {
  cancelOpenPayment?: boolean;
}

/** A void or write-off by policy (a pause, an expired first payment, dunning's final action). */
export const BY_POLICY: OpenPaymentHandling = { cancelOpenPayment: true };

/** Voids an open invoice without payments; voiding a void invoice does nothing (a process may repeat it). */
export class VoidInvoiceCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly options: OpenPaymentHandling = {},
  ) {
    super();
  }
}

/** Writes off an open (or partly paid) invoice; repeating it does nothing. */
export class MarkInvoiceUncollectibleCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly options: OpenPaymentHandling = {},
  ) {
    super();
  }
}

export class IssueCreditNoteCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly note: { reason: CreditNoteReason; memo: string | null; amount: string | null; lines: { line_id: string; amount: string }[] | null },
  ) {
    super();
  }
}

export const written = ({ resource, revision }: InvoiceOutcome): InvoiceWritten => ({ invoice: resource!, revision });

@CommandHandler(CreateInvoiceCommand)
export class CreateInvoiceHandler implements ICommandHandler<CreateInvoiceCommand, InvoiceWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateInvoiceCommand): Promise<InvoiceWritten> {
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
    return written(await this.runtime.execute(invoiceAggregate, id, command, onClock, { newStream: true }));
  }
}

@CommandHandler(UpdateInvoiceCommand)
export class UpdateInvoiceHandler implements ICommandHandler<UpdateInvoiceCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, patch, expectedRevision }: UpdateInvoiceCommand): Promise<InvoiceWritten> {
    const command = (now: string): UpdateInvoiceDraft => ({ type: 'UpdateInvoiceDraft', data: { invoice_id: invoiceId, ...patch, now } });
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, command, context, { expectedRevision }));
  }
}

@CommandHandler(AddInvoiceLineCommand)
export class AddInvoiceLineHandler implements ICommandHandler<AddInvoiceLineCommand, InvoiceWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, invoiceId, line }: AddInvoiceLineCommand): Promise<InvoiceWritten> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    const priced: InvoiceLineData = manualLine({ ...line, line_id: this.ids.next(INVOICE_LINE_ID_PREFIX) }, state.currency);
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'AddInvoiceLine', data: { invoice_id: invoiceId, line: priced } }, context));
  }
}

@CommandHandler(RemoveInvoiceLineCommand)
export class RemoveInvoiceLineHandler implements ICommandHandler<RemoveInvoiceLineCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, lineId }: RemoveInvoiceLineCommand): Promise<InvoiceWritten> {
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'RemoveInvoiceLine', data: { invoice_id: invoiceId, line_id: lineId } }, context));
  }
}

@CommandHandler(FinalizeInvoiceCommand)
export class FinalizeInvoiceHandler implements ICommandHandler<FinalizeInvoiceCommand, InvoiceWritten> {
  constructor(private readonly finalizer: InvoiceFinalizer) {}

  async execute({ context, invoiceId, number }: FinalizeInvoiceCommand): Promise<InvoiceWritten> {
    return written(await this.finalizer.finalize(context, invoiceId, { number, whenFinal: 'refuse' }));
  }
}

@CommandHandler(RecomputeInvoiceTaxCommand)
export class RecomputeInvoiceTaxHandler implements ICommandHandler<RecomputeInvoiceTaxCommand, InvoiceWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly finalizer: InvoiceFinalizer,
  ) {}

  async execute({ context, invoiceId }: RecomputeInvoiceTaxCommand): Promise<InvoiceWritten> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    const { state } = loaded;
    if (state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    const placeholder = { line_ids: [], totals: undefined! };
    const now = (await this.clocks.now(cell, loaded.clockId ?? context.clockId)).toISOString();
    const { line_ids, totals } = state.status === 'draft' ? await this.finalizer.totalsOf(context, state, now) : placeholder;
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'RecordInvoiceTax', data: { invoice_id: invoiceId, line_ids, totals } }, context));
  }
}

@CommandHandler(VoidInvoiceCommand)
export class VoidInvoiceHandler implements ICommandHandler<VoidInvoiceCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, options }: VoidInvoiceCommand): Promise<InvoiceWritten> {
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'VoidInvoice', data: { invoice_id: invoiceId, cancel_open_payment: options.cancelOpenPayment } }, context));
  }
}

@CommandHandler(MarkInvoiceUncollectibleCommand)
export class MarkInvoiceUncollectibleHandler implements ICommandHandler<MarkInvoiceUncollectibleCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, options }: MarkInvoiceUncollectibleCommand): Promise<InvoiceWritten> {
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'MarkInvoiceUncollectible', data: { invoice_id: invoiceId, cancel_open_payment: options.cancelOpenPayment } }, context));
  }
}

@CommandHandler(IssueCreditNoteCommand)
export class IssueCreditNoteHandler implements ICommandHandler<IssueCreditNoteCommand, InvoiceWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, invoiceId, note }: IssueCreditNoteCommand): Promise<InvoiceWritten> {
    const creditNoteId = this.ids.next(CREDIT_NOTE_ID_PREFIX);
    const command = (now: string): IssueCreditNote => ({ type: 'IssueCreditNote', data: { invoice_id: invoiceId, credit_note_id: creditNoteId, ...note, now } });
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, command, context));
  }
}

export const invoiceCommandHandlers = [
  CreateInvoiceHandler,
  UpdateInvoiceHandler,
  AddInvoiceLineHandler,
  RemoveInvoiceLineHandler,
  FinalizeInvoiceHandler,
  RecomputeInvoiceTaxHandler,
  VoidInvoiceHandler,
  MarkInvoiceUncollectibleHandler,
  IssueCreditNoteHandler,
];
