import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, ScopedReads } from '@tally/runtime';
import { CREDIT_NOTES, invoiceRefunds, refundIdOfCreditNote, type CreditNoteResolution, type CreditNoteResource, type ResolveCreditNote } from '@tally/invoicing';
import { CustomerWallets } from '@tally/wallets';
import { refundAggregate } from './refund.aggregate';
import { creditNoteWalletTransactionId } from './refunds';

const creditNoteNotFound = (id: string) => DomainError.notFound('credit_note.not_found', `No credit note ${id}`);

/**
 * An operator closes a credit note whose refund failed on every attempt (`pending_manual`): the
 * money was returned some other way, or it goes to the customer's wallet now (reason
 * `credit_note`, source the credit note).
 */
@Injectable()
export class CreditNoteResolutions {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly wallets: CustomerWallets,
    private readonly reads: ScopedReads,
  ) {}

  async resolve(context: RequestContext, creditNoteId: string, resolution: CreditNoteResolution): Promise<CreditNoteResource> {
    const { invoiceId, customerId, currency, amount } = await this.creditNoteOf(context, creditNoteId);
    const resolve = (now: string): ResolveCreditNote => ({ type: 'ResolveCreditNote', data: { invoice_id: invoiceId, credit_note_id: creditNoteId, resolution, now } });
    const resolved = await this.commands.send(invoiceRefunds, invoiceId, resolve, context);
    if (resolution === 'credited_to_wallet') {
      const credit = { customer_id: customerId, currency, amount, reason: 'credit_note', transaction_id: creditNoteWalletTransactionId(creditNoteId), description: `Credit note ${creditNoteId}` } as const;
      await this.wallets.credit(context, { ...credit, source: { type: 'credit_note', id: creditNoteId } });
    }
    return resolved.resource!.credit_notes.find((note) => note.id === creditNoteId)!;
  }

  /**
   * Where the credit note is: its refund says (from its stream); a note whose refund could not even
   * be reserved has none, and the credit notes' read model says (the invoice then decides).
   */
  private async creditNoteOf(context: RequestContext, creditNoteId: string): Promise<{ invoiceId: string; customerId: string; currency: string; amount: string }> {
    const refund = await this.runtime.load(this.runtime.cellOf(context), refundAggregate, refundIdOfCreditNote(creditNoteId), context);
    if (refund.state.status !== 'none') return refund.state;
    const found = await this.reads.retrieve<CreditNoteResource>(context, CREDIT_NOTES, creditNoteId);
    if (!found) throw creditNoteNotFound(creditNoteId);
    const { invoice_id, customer_id, currency, amount } = found.resource;
    return { invoiceId: invoice_id, customerId: customer_id, currency, amount };
  }
}
