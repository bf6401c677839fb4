import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ProcessManager } from '@tally/runtime';
import { unappliedPaymentRefundDecider, type RefundUnappliedPayment, type UnappliedPaymentInput, type UnappliedPaymentState } from './domain/unapplied-payment-refund.decider';
import { UnappliedPaymentRefunds } from './unapplied-payment-refunds';

/** Refunds of payments their invoices did not apply (see unappliedPaymentRefundDecider). */
@Injectable()
export class UnappliedPaymentRefundProcess implements ProcessManager<UnappliedPaymentState, UnappliedPaymentInput, RefundUnappliedPayment> {
  readonly name = 'unapplied_payment_refund';
  readonly streamPrefixes = ['invoice-', 'payment-'];
  readonly decider = unappliedPaymentRefundDecider;
  /** Won disputes of payments their invoices applied keep no stream. */
  readonly startsOn = ['InvoicePaymentNotApplied'];

  constructor(private readonly refunds: UnappliedPaymentRefunds) {}

  route(event: RecordedEvent): { processId: string; input: UnappliedPaymentInput } | undefined {
    if (event.type !== 'InvoicePaymentNotApplied' && event.type !== 'PaymentDisputeWon') return undefined;
    const { payment_id } = event.data as UnappliedPaymentInput['data'];
    return { processId: payment_id, input: { id: event.id, type: event.type, data: { payment_id } } };
  }

  async dispatch(command: RefundUnappliedPayment, context: RequestContext): Promise<void> {
    await this.refunds.refund(context, command.data.payment_id);
  }
}
