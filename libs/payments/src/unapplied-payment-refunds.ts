import { Inject, Injectable } from '@nestjs/common';
import { derivedId } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands } from '@tally/runtime';
import { walletPostings, type CreditWallet } from '@tally/wallets';
import { paymentAggregate } from './payment.aggregate';
import { WALLET_PROVIDER } from './wallet-settlement/wallet-payments';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';

/** Tally's id of a payment's refund: one automatic refund per payment. */
export const unappliedRefundId = (paymentId: string): string => derivedId('re', [paymentId, 'not_applied']);

/** Refunds a succeeded payment its invoice did not apply, through the provider (or, a wallet's, to the wallet). */
@Injectable()
export class UnappliedPaymentRefunds {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /**
   * The whole payment goes back to the method it came from, asked with the key `refund:<payment
   * id>`, so a retry after a crash meets the refund made instead of refunding twice. A payment that
   * is not `succeeded` holds nothing to return: refunded already, or charged back (the bank holds
   * the money until the dispute is decided; a won dispute asks again). A settlement from the
   * wallet goes back to the wallet instead.
   */
  async refund(context: RequestContext, paymentId: string): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const payment = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    const { state } = payment;
    if (state.status !== 'succeeded') return;
    if (!state.providerId) throw new Error(`Payment ${paymentId} succeeded without the provider's id`);
    const now = (await this.clocks.now(cell, payment.clockId)).toISOString();
    const returned = payment.resource?.provider === WALLET_PROVIDER ? await this.returnToWallet(context, state.providerRef, paymentId, state.amount, now) : await this.refundByProvider(state.providerId, paymentId, state.amount, state.currency, now);
    const data = { payment_id: paymentId, refund_id: unappliedRefundId(paymentId), provider_refund_id: returned.id, reason: 'invoice_not_payable' as const, refunded_at: returned.at };
    await this.commands.send(paymentAggregate, paymentId, { type: 'RecordRefund', data }, context);
  }

  private async refundByProvider(providerPaymentId: string, paymentId: string, amount: string, currency: string, now: string): Promise<{ id: string; at: string }> {
    const refund = await this.provider.refund({ providerPaymentId, amount, currency, now, idempotencyKey: `refund:${paymentId}` });
    // Not a domain error: the dispatcher retries, then parks the command for an operator.
    if (refund.status === 'failed') throw new Error(`The provider refused to refund payment ${paymentId}: ${refund.code} (${refund.message})`);
    return { id: refund.providerRefundId, at: refund.refundedAt };
  }

  /** A settlement from the wallet its invoice did not take goes back to the wallet (its `provider_ref`), once: the credit's id derives from the payment. */
  private async returnToWallet(context: RequestContext, walletId: string, paymentId: string, amount: string, now: string): Promise<{ id: string; at: string }> {
    const transaction_id = derivedId('wtx', [paymentId, 'not_applied']);
    const posting = (at: string): CreditWallet => ({
      type: 'CreditWallet',
      data: { wallet_id: walletId, transaction_id, amount, reason: 'refund', source: { type: 'payment', id: paymentId }, external_id: null, description: `Payment ${paymentId} not applied`, now: at },
    });
    await this.commands.send(walletPostings, walletId, posting, context);
    return { id: transaction_id, at: now };
  }
}
