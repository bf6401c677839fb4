import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { InvoicePaymentStarted } from '@tally/invoicing';
import { asEventOf, CommandRuntime, dispatchPageOf, type Reaction, type ReactionCall } from '@tally/runtime';
import type { PaymentEvent } from './domain/payment.events';
import { InvoiceDunning } from './dunning.handlers';
import { OpenPaymentCancellation } from './open-payment-cancellation';
import { paymentAggregate } from './payment.aggregate';
import { PaymentCharger } from './payment-charger';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { WalletPayments } from './wallet-settlement/wallet-payments';

type FlowStep =
  | { type: 'CreateAndChargePayment'; data: InvoicePaymentStarted['data'] }
  | { type: 'SettleFromWallet'; data: InvoicePaymentStarted['data'] }
  | { type: 'RecordPaymentOnInvoice'; data: { payment_id: string } }
  | { type: 'RetryFailedInvoices'; data: { customer_id: string; payment_method_id: string; occasion: string } }
  | { type: 'CancelOpenPayment'; data: { invoice_id: string } };

/** The payment's events that end an attempt: the invoice then records the payment or the failure. */
const OUTCOMES: readonly PaymentEvent['type'][] = ['PaymentSucceeded', 'PaymentFailed', 'PaymentCanceled'];

/**
 * The money flow between invoices and payments, a step per event: an attempt (started by a pay
 * request, or by the invoice's finalisation when it is charged automatically) becomes a payment
 * created with its charge's outcome (a settlement from the wallet: the wallet debited, then the
 * payment created with what it gave), the outcome goes back to its invoice, a subscription
 * invoice's failure enters its customer's failed invoices, and a customer's new default method
 * retries them. Each step is idempotent and its command id derives from the event, so the steps
 * the pay request already took are not taken twice, and those a crash interrupted are taken here.
 */
@Injectable()
export class PaymentFlowReaction implements Reaction<FlowStep> {
  readonly name = 'payment_flow';
  readonly streamPrefixes = ['invoice-', 'payment-', 'customer-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly charger: PaymentCharger,
    private readonly outcomes: PaymentOutcomeOnInvoice,
    private readonly dunning: InvoiceDunning,
    private readonly cancellation: OpenPaymentCancellation,
    private readonly walletPayments: WalletPayments,
  ) {}

  commandOf(event: RecordedEvent): { lane: string; command: FlowStep } | undefined {
    switch (event.type) {
      case 'InvoiceVoided':
      case 'InvoiceMarkedUncollectible': {
        // Nothing is to be collected any more: a payment still waiting for the customer's action must not take money later.
        const { invoice_id } = event.data as { invoice_id: string };
        return { lane: invoice_id, command: { type: 'CancelOpenPayment', data: { invoice_id } } };
      }
      case 'InvoicePaymentStarted': {
        const attempt = asEventOf<InvoicePaymentStarted>(event).data;
        return { lane: attempt.invoice_id, command: { type: attempt.source === 'wallet' ? 'SettleFromWallet' : 'CreateAndChargePayment', data: attempt } };
      }
      case 'CustomerDefaultPaymentMethodChanged': {
        // A new default method: what dunning waits for is retried at once (Stripe retries when the customer updates their method).
        const { customer_id, payment_method_id } = event.data as { customer_id: string; payment_method_id: string | null };
        if (!payment_method_id) return undefined;
        return { lane: customer_id, command: { type: 'RetryFailedInvoices', data: { customer_id, payment_method_id, occasion: `default:${event.id}` } } };
      }
      default: {
        if (!OUTCOMES.includes(event.type as PaymentEvent['type'])) return undefined;
        const { payment_id } = event.data as { payment_id: string };
        return { lane: payment_id, command: { type: 'RecordPaymentOnInvoice', data: { payment_id } } };
      }
    }
  }

  async dispatch(step: FlowStep, context: RequestContext): Promise<void> {
    switch (step.type) {
      case 'CreateAndChargePayment':
        await this.charger.createAndCharge(context, step.data);
        return;
      case 'SettleFromWallet':
        await this.walletPayments.settle(context, step.data);
        return;
      case 'RecordPaymentOnInvoice':
        return this.recordOutcome(context, step.data.payment_id);
      case 'RetryFailedInvoices':
        return this.dunning.retryFailedInvoicesOf(context, step.data.customer_id, step.data.payment_method_id, step.data.occasion);
      case 'CancelOpenPayment':
        return this.cancellation.cancel(context, step.data.invoice_id);
    }
  }

  /** The page's attempts create and charge their payments as a page (PaymentCharger.createAndChargeEach); its other steps one by one. */
  dispatchEach(calls: readonly ReactionCall<FlowStep>[]): Promise<PromiseSettledResult<void>[]> {
    return dispatchPageOf(calls, 'CreateAndChargePayment', (page) => this.charger.createAndChargeEach(page.map(({ context, data }) => ({ context, attempt: data }))), (step, context) => this.dispatch(step, context));
  }

  /** The outcome on the invoice; a subscription invoice's failure also enters its customer's failed invoices. */
  private async recordOutcome(context: RequestContext, paymentId: string): Promise<void> {
    const payment = await this.runtime.load(this.runtime.cellOf(context), paymentAggregate, paymentId, context);
    await this.outcomes.record(context, payment);
    if (payment.state.status === 'failed' && payment.state.subscriptionId) await this.dunning.recordFailure(context, payment.state.customerId, payment.state.invoiceId);
  }
}
