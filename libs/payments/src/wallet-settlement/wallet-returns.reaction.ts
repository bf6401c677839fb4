import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { derivedId } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, type Reaction } from '@tally/runtime';
import { invoiceAggregate, type CreditNoteIssued, type InvoiceFinalized, type InvoiceVoided } from '@tally/invoicing';
import { CustomerWallets, walletPostings, type CreditWallet, type CustomerWalletCredit } from '@tally/wallets';

/** Money an invoice owes back to its customer's wallet, and why. */
type WalletReturn =
  | { type: 'CreditNegativeTotal'; data: { invoice_id: string; amount: string } }
  | { type: 'ReturnVoidedSettlement'; data: { invoice_id: string; wallet_id: string; amount: string } }
  | { type: 'CreditCreditNote'; data: { invoice_id: string; credit_note_id: string; amount: string } };

/** The outcome a credit note is issued with, and the refund that issued it (both absent from credit notes issued before refunds existed). */
type CreditNoteOutcome = { outcome?: { kind: string }; refund_id?: string | null };

/**
 * Money going back to the customer's wallet, each credit's transaction id derived from its
 * cause so a redelivery posts once: a finalised invoice with a negative total (a cancellation's
 * credit for unused time, a downgrade invoiced at once) credits the wallet in its currency,
 * created when missing (Stripe's customer balance takes it, reason `credit_note`, source the
 * invoice); a voided invoice returns what the wallet paid on it (reason `refund`); a credit note
 * whose outcome is `credit_balance` credits its amount (reason `credit_note`, source the credit
 * note), unless a refund to the wallet issued it: that refund credits the wallet itself.
 */
@Injectable()
export class WalletReturnsReaction implements Reaction<WalletReturn> {
  readonly name = 'wallet_returns';
  readonly streamPrefixes = ['invoice-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly wallets: CustomerWallets,
  ) {}

  commandOf(event: RecordedEvent): { lane: string; command: WalletReturn } | undefined {
    switch (event.type) {
      case 'InvoiceFinalized': {
        const { invoice_id, totals } = event.data as InvoiceFinalized['data'];
        if (!new Big(totals.total).lt(0)) return undefined;
        return { lane: invoice_id, command: { type: 'CreditNegativeTotal', data: { invoice_id, amount: new Big(totals.total).neg().toFixed() } } };
      }
      case 'InvoiceVoided': {
        const { invoice_id, wallet_id, wallet_returned } = event.data as InvoiceVoided['data'];
        if (!wallet_id || !wallet_returned) return undefined;
        return { lane: invoice_id, command: { type: 'ReturnVoidedSettlement', data: { invoice_id, wallet_id, amount: wallet_returned } } };
      }
      case 'CreditNoteIssued': {
        const { invoice_id, credit_note_id, amount, outcome, refund_id } = event.data as CreditNoteIssued['data'] & CreditNoteOutcome;
        // A refund to the wallet credits it itself (reason `refund`, source the refund).
        if (outcome?.kind !== 'credit_balance' || refund_id) return undefined;
        return { lane: invoice_id, command: { type: 'CreditCreditNote', data: { invoice_id, credit_note_id, amount } } };
      }
      default:
        return undefined;
    }
  }

  async dispatch(step: WalletReturn, context: RequestContext): Promise<void> {
    const { invoice_id, amount } = step.data;
    switch (step.type) {
      case 'CreditNegativeTotal':
        return this.creditCustomer(context, invoice_id, { amount, reason: 'credit_note', source: { type: 'invoice', id: invoice_id }, transaction_id: derivedId('wtx', [invoice_id, 'negative_total']), description: `Credit of invoice ${invoice_id}` });
      case 'CreditCreditNote': {
        const { credit_note_id } = step.data;
        return this.creditCustomer(context, invoice_id, { amount, reason: 'credit_note', source: { type: 'credit_note', id: credit_note_id }, transaction_id: derivedId('wtx', [credit_note_id, 'credit_balance']), description: `Credit note ${credit_note_id}` });
      }
      case 'ReturnVoidedSettlement': {
        const { wallet_id } = step.data;
        const posting = (now: string): CreditWallet => ({
          type: 'CreditWallet',
          data: { wallet_id, transaction_id: derivedId('wtx', [invoice_id, 'void']), amount, reason: 'refund', source: { type: 'invoice', id: invoice_id }, external_id: null, description: `Invoice ${invoice_id} voided`, now },
        });
        await this.commands.send(walletPostings, wallet_id, posting, context);
        return;
      }
    }
  }

  /** A credit to the invoice's customer's wallet in its currency, created when missing. */
  private async creditCustomer(context: RequestContext, invoiceId: string, credit: Omit<CustomerWalletCredit, 'customer_id' | 'currency'>): Promise<void> {
    const invoice = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (invoice.state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    await this.wallets.credit(context, { ...credit, customer_id: invoice.state.customerId, currency: invoice.state.currency });
  }
}
