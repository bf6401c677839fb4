import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands } from '@tally/runtime';
import { invoiceRefunds, refundIdOfCreditNote, type CreditNoteResolution, type CreditNoteResource, type ResolveCreditNote } from '@tally/invoicing';
import { CustomerWallets } from '@tally/wallets';
import { refundAggregate } from './refund.aggregate';
import { creditNoteWalletTransactionId } from './refunds';

const creditNoteNotFound = (id: string) => DomainError.notFound('credit_note.not_found', `No credit note ${id} of a refund`);

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

  /** A refund's credit note (only those can be `pending_manual`): where it is, from the refund's stream. */
  private async creditNoteOf(context: RequestContext, creditNoteId: string): Promise<{ invoiceId: string; customerId: string; currency: string; amount: string }> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), refundAggregate, refundIdOfCreditNote(creditNoteId), context);
    if (state.status === 'none' || state.creditNoteId !== creditNoteId) throw creditNoteNotFound(creditNoteId);
    return state;
  }
}
