import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { derivedId } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, type ProcessManager } from '@tally/runtime';
import type { InvoicePaymentNotApplied } from '@tally/invoicing';
import { unappliedPaymentRefundDecider, type RefundUnappliedPayment, type UnappliedPaymentInput, type UnappliedPaymentState } from './domain/unapplied-payment-refund.decider';
import { paymentAggregate } from './payment.aggregate';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';

/** Refunds of payments their invoices did not apply (see unappliedPaymentRefundDecider). */
@Injectable()
export class UnappliedPaymentRefundProcess implements ProcessManager<UnappliedPaymentState, UnappliedPaymentInput, RefundUnappliedPayment> {
  readonly name = 'unapplied_payment_refund';
  readonly streamPrefixes = ['invoice-', 'payment-'];
  readonly decider = unappliedPaymentRefundDecider;
  /** Won disputes of payments their invoices applied keep no stream. */
  readonly startsOn = ['InvoicePaymentNotApplied'];

  constructor(private readonly commands: CommandBus) {}

  route(event: RecordedEvent): { processId: string; input: UnappliedPaymentInput } | undefined {
    if (event.type !== 'InvoicePaymentNotApplied' && event.type !== 'PaymentDisputeWon') return undefined;
    const { payment_id } = (event as unknown as InvoicePaymentNotApplied).data;
    return { processId: payment_id, input: { id: event.id, type: event.type, data: { payment_id } } };
  }

  async dispatch(command: RefundUnappliedPayment, context: RequestContext): Promise<void> {
    await this.commands.execute(new RefundUnappliedPaymentCommand(context, command.data.payment_id));
  }
}

export class RefundUnappliedPaymentCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

/** Tally's id of a payment's refund: one automatic refund per payment. */
export const unappliedRefundId = (paymentId: string): string => derivedId('re', [paymentId, 'not_applied']);

@CommandHandler(RefundUnappliedPaymentCommand)
export class RefundUnappliedPaymentHandler implements ICommandHandler<RefundUnappliedPaymentCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /**
   * The whole payment goes back to the method it came from, asked with the key `refund:<payment
   * id>`, so a retry after a crash meets the refund made instead of refunding twice. A payment that
   * is not `succeeded` holds nothing to return: refunded already, or charged back (the bank holds
   * the money until the dispute is decided; a won dispute asks again).
   */
  async execute({ context, paymentId }: RefundUnappliedPaymentCommand): Promise<void> {
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
    await this.runtime.execute(paymentAggregate, paymentId, { type: 'RecordRefund', data }, context);
  }
}
