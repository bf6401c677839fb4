import { Injectable } from '@nestjs/common';
import { derivedId, DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { invoiceCollection, InvoiceWallets, type InvoicePaymentStarted } from '@tally/invoicing';
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
    private readonly wallets: InvoiceWallets,
  ) {}

  /** The settlement's payment, or undefined when the wallet was empty (the attempt is then closed, and the invoice charges its method if it was the finalisation's). */
  async settle(context: RequestContext, attempt: InvoicePaymentStarted['data']): Promise<CommandOutcome<PaymentState, PaymentResource> | undefined> {
    const cell = this.runtime.cellOf(context);
    const existing = await this.runtime.load(cell, paymentAggregate, attempt.payment_id, context);
    if (existing.state.status !== 'none') return { ...existing, appended: [] };
    const { invoice_id, payment_id, customer_id, subscription_id, payment_method_id: wallet_id, currency, reason } = attempt;
    const transaction_id = settlementTransactionId(payment_id);
    const amount = await this.debit(context, attempt, transaction_id);
    if (amount === undefined) {
      await this.commands.send(invoiceCollection, invoice_id, { type: 'CloseInvoicePayment', data: { invoice_id, payment_id, outcome: 'canceled', last_error: null } }, context);
      return undefined;
    }
    const captured_at = (await this.clocks.now(cell, existing.clockId ?? context.clockId)).toISOString();
    const data = {
      payment_id,
      invoice_id,
      customer_id,
      subscription_id,
      payment_method_id: wallet_id,
      provider: WALLET_PROVIDER,
      provider_ref: wallet_id,
      amount,
      currency,
      reason,
      dunning: null,
      return_url: null,
      answer: { status: 'succeeded' as const, provider_id: transaction_id, captured_at },
    };
    const created = await this.commands.send(paymentAggregate, payment_id, { type: 'CreatePayment', data }, context);
    await this.outcomes.follow(context, created);
    return created;
  }

  /** 409 `wallet.insufficient_balance` for an empty wallet, before anything is written. */
  async assertFunded(context: RequestContext, walletId: string): Promise<void> {
    if (!(await this.wallets.isFunded(context, walletId))) throw emptyWallet(walletId);
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
      return transactionOf(state, transaction_id)!.amount;
    } catch (refusal) {
      if (refusal instanceof DomainError && refusal.code === 'wallet.insufficient_balance') return undefined;
      throw refusal;
    }
  }
}

export const emptyWallet = (walletId: string) => DomainError.conflict('wallet.insufficient_balance', `Wallet ${walletId} is empty: nothing to pay from it`);
