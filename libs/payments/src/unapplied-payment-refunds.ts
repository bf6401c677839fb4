import { Inject, Injectable } from '@nestjs/common';
import { derivedId } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands } from '@tally/runtime';
import { paymentAggregate } from './payment.aggregate';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';

/** Tally's id of a payment's refund: one automatic refund per payment. */
export const unappliedRefundId = (paymentId: string): string => derivedId('re', [paymentId, 'not_applied']);

/** Refunds a succeeded payment its invoice did not apply, through the provider. */
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
   * the money until the dispute is decided; a won dispute asks again).
   */
  async refund(context: RequestContext, paymentId: string): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const payment = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    const { state } = payment;
    if (state.status !== 'succeeded') return;
    if (!state.providerId) throw new Error(`Payment ${paymentId} succeeded without the provider's id`);
    const now = (await this.clocks.now(cell, payment.clockId)).toISOString();
    const refund = await this.provider.refund({ providerPaymentId: state.providerId, amount: state.amount, currency: state.currency, now, idempotencyKey: `refund:${paymentId}` });
    // Not a domain error: the dispatcher retries, then parks the command for an operator.
    if (refund.status === 'failed') throw new Error(`The provider refused to refund payment ${paymentId}: ${refund.code} (${refund.message})`);
    const data = { payment_id: paymentId, refund_id: unappliedRefundId(paymentId), provider_refund_id: refund.providerRefundId, reason: 'invoice_not_payable' as const, refunded_at: refund.refundedAt };
    await this.commands.send(paymentAggregate, paymentId, { type: 'RecordRefund', data }, context);
  }
}
