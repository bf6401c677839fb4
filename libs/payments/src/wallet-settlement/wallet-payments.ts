import { Injectable } from '@nestjs/common';
import { derivedId, DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { invoiceAggregate, isPayable, type InvoicePaymentStarted } from '@tally/invoicing';
import { transactionOf, walletPostings, type DebitWallet } from '@tally/wallets';
import type { PaymentState } from '../domain/payment.decider';
import { paymentAggregate } from '../payment.aggregate';
import type { PaymentResource } from '../payment.view';
import { PaymentOutcomeOnInvoice } from '../payment-outcome-on-invoice';

/** The provider of a payment the customer's wallet made. */
export const WALLET_PROVIDER = 'wallet';

/** The wallet transaction a settlement's payment debits: one per payment, so a settlement asked twice debits once. */
export const settlementTransactionId = (paymentId: string): string => derivedId('wtx', [paymentId, 'settlement']);

/**
 * Settlements of invoices from the customer's wallet, each a payment (`provider: wallet`, its
 * `provider_id` the wallet's transaction) applied to its invoice like any other. The wallet is
 * debited first, as much of the attempt's amount as its balance covers (its decider refuses to
 * go below zero, and a conflicting append decides again), then the payment is created succeeded
 * with what was debited. Both steps are idempotent (the transaction and the payment ids derive
 * from the attempt), so the request and the payment flow reaction may both take them, and a crash
 * between them is completed by the next.
 */
@Injectable()
export class WalletPayments {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    private readonly outcomes: PaymentOutcomeOnInvoice,
  ) {}

  /**
   * The settlement's payment: `succeeded` with what the wallet gave, or `canceled` when it was
   * empty (the attempt then ends without a failure, and the invoice charges its method if it was
   * the finalisation's); undefined when the invoice no longer waits for it.
   */
  async settle(context: RequestContext, attempt: InvoicePaymentStarted['data']): Promise<CommandOutcome<PaymentState, PaymentResource> | undefined> {
    const cell = this.runtime.cellOf(context);
    const existing = await this.runtime.load(cell, paymentAggregate, attempt.payment_id, context);
    if (existing.state.status !== 'none') return { ...existing, appended: [] };
    const { invoice_id, payment_id, customer_id, subscription_id, payment_method_id: wallet_id, currency, reason } = attempt;
    const transaction_id = settlementTransactionId(payment_id);
    // Voided or written off by a policy before the wallet was debited (a paused subscription's renewal): the wallet keeps its money.
    // Debited already (a crash before the payment's creation): the payment is created all the same, and returned if not applied.
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoice_id, context);
    const waiting = invoice.state.status !== 'none' && isPayable(invoice.state) && invoice.state.openPayment === payment_id;
    if (!waiting && !(await this.wasDebited(context, wallet_id, transaction_id))) return undefined;
    const debited = await this.debit(context, attempt, transaction_id);
    const captured_at = (await this.clocks.now(cell, existing.clockId ?? context.clockId)).toISOString();
    const answer = debited === undefined ? ({ status: 'canceled' } as const) : ({ status: 'succeeded', provider_id: transaction_id, captured_at } as const);
    const data = {
      payment_id,
      invoice_id,
      customer_id,
      subscription_id,
      payment_method_id: wallet_id,
      provider: WALLET_PROVIDER,
      provider_ref: wallet_id,
      amount: debited ?? attempt.amount,
      currency,
      reason,
      dunning: null,
      return_url: null,
      answer,
    };
    const created = await this.commands.send(paymentAggregate, payment_id, { type: 'CreatePayment', data }, context);
    await this.outcomes.follow(context, created);
    return created;
  }

  private async wasDebited(context: RequestContext, walletId: string, transactionId: string): Promise<boolean> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), walletPostings, walletId, context);
    return transactionOf(state, transactionId) !== undefined;
  }

  /**
   * What the wallet gave: the debit's amount, as much of the attempt's as the balance covers (on a
   * second call, the transaction posted the first time), or undefined when it was empty.
   */
  private async debit(context: RequestContext, attempt: InvoicePaymentStarted['data'], transaction_id: string): Promise<string | undefined> {
    const { invoice_id, payment_method_id: wallet_id, amount } = attempt;
    const posting = (now: string): DebitWallet => ({
      type: 'DebitWallet',
      data: { wallet_id, transaction_id, amount, reason: 'invoice_settlement', source: { type: 'invoice', id: invoice_id }, external_id: null, description: `Settlement of invoice ${invoice_id}`, partial: true, now },
    });
    try {
      const { state } = await this.commands.send(walletPostings, wallet_id, posting, context);
      const posted = transactionOf(state, transaction_id);
      if (!posted) throw new Error(`Wallet ${wallet_id} did not post ${transaction_id}: its command id was applied to another debit`);
      return posted.amount;
    } catch (refusal) {
      if (refusal instanceof DomainError && refusal.code === 'wallet.insufficient_balance') return undefined;
      throw refusal;
    }
  }
}

export const emptyWallet = (walletId: string) => DomainError.conflict('wallet.insufficient_balance', `Wallet ${walletId} is empty: nothing to pay from it`);
