import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import type { InvoiceState, IssueCreditNote } from '../domain/invoice.decider';
import { CREDIT_NOTE_NUMBERS, invoiceAggregate } from '../invoice.aggregate';
import type { InvoiceResource } from '../invoice.view';
import { InvoiceNumbering } from '../invoice-numbering';

type InvoiceOutcome = Pick<CommandOutcome<InvoiceState, InvoiceResource>, 'state' | 'resource' | 'revision'>;

/**
 * Issues a credit note in two appends on its invoice around its number: decided (what it credits
 * taken off, checked against everything else on the invoice), then numbered from the tenant's
 * credit-note sequence. A number is reserved only for a decided note, and the credit-note
 * numbering reaction numbers a decided note a crash left unnumbered, so the sequence has no gap.
 */
@Injectable()
export class CreditNoteIssuance {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly numbering: InvoiceNumbering,
  ) {}

  async issue(context: RequestContext, invoiceId: string, creditNoteId: string, command: (now: string) => IssueCreditNote): Promise<InvoiceOutcome> {
    return this.numbered(context, invoiceId, creditNoteId, await this.commands.send(invoiceAggregate, invoiceId, command, context));
  }

  /** Numbers the credit note if it is decided and not yet numbered. */
  async number(context: RequestContext, invoiceId: string, creditNoteId: string): Promise<InvoiceOutcome> {
    return this.numbered(context, invoiceId, creditNoteId, await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context));
  }

  private async numbered(context: RequestContext, invoiceId: string, creditNoteId: string, invoice: InvoiceOutcome): Promise<InvoiceOutcome> {
    const { state } = invoice;
    if (state.status === 'none' || !state.pendingCreditNotes.some((note) => note.credit_note_id === creditNoteId)) return invoice;
    const number = await this.numbering.reserve(context, creditNoteId, undefined, CREDIT_NOTE_NUMBERS);
    return this.commands.send(invoiceAggregate, invoiceId, { type: 'NumberCreditNote', data: { invoice_id: invoiceId, credit_note_id: creditNoteId, number } }, context);
  }
}
