import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { InvoicePaymentStarted } from '@tally/invoicing';
import type { Reaction } from '@tally/runtime';
import type { PaymentCreated, PaymentEvent } from './domain/payment.events';
import { ChargePaymentCommand, CreatePaymentFromAttemptCommand } from './payment.handlers';
import { AutoChargeInvoiceCommand, CancelOpenPaymentCommand, RecordPaymentOnInvoiceCommand } from './payment-on-invoice.handlers';
import { RetryFailedInvoicesOfCustomerCommand } from './dunning.handlers';

type FlowStep =
  | { type: 'AutoChargeInvoice'; data: { invoice_id: string } }
  | { type: 'CreatePayment'; data: InvoicePaymentStarted['data'] }
  | { type: 'ChargePayment'; data: { payment_id: string } }
  | { type: 'RecordPaymentOnInvoice'; data: { payment_id: string } }
  | { type: 'RetryFailedInvoices'; data: { customer_id: string; occasion: string } }
  | { type: 'CancelOpenPayment'; data: { invoice_id: string } };

/** The payment's events that end an attempt: the invoice then records the payment or the failure. */
const OUTCOMES: readonly PaymentEvent['type'][] = ['PaymentSucceeded', 'PaymentFailed', 'PaymentCanceled'];

/**
 * The money flow between invoices and payments, a step per event: a finalised invoice is charged
 * automatically (when it says so), an attempt becomes a payment, a payment is charged, its
 * outcome goes back to its invoice, and a customer's new default method retries its failed
 * subscription invoices. Each step is idempotent and its command id derives from the
 * event, so the steps the pay request already took are not taken twice, and those a crash
 * interrupted are taken here.
 */
@Injectable()
export class PaymentFlowReaction implements Reaction<FlowStep> {
  readonly name = 'payment_flow';
  readonly streamPrefixes = ['invoice-', 'payment-', 'customer-'];

  constructor(private readonly commands: CommandBus) {}

  commandOf(event: RecordedEvent) {
    switch (event.type) {
      case 'InvoiceFinalized': {
        const { invoice_id } = event.data as { invoice_id: string };
        return { lane: invoice_id, command: { type: 'AutoChargeInvoice' as const, data: { invoice_id } } };
      }
      case 'InvoiceVoided':
      case 'InvoiceMarkedUncollectible': {
        // Nothing is to be collected any more: a payment still waiting for the customer's action must not take money later.
        const { invoice_id } = event.data as { invoice_id: string };
        return { lane: invoice_id, command: { type: 'CancelOpenPayment' as const, data: { invoice_id } } };
      }
      case 'InvoicePaymentStarted': {
        const attempt = (event as unknown as InvoicePaymentStarted).data;
        return { lane: attempt.invoice_id, command: { type: 'CreatePayment' as const, data: attempt } };
      }
      case 'CustomerDefaultPaymentMethodChanged': {
        // A new default method: what dunning waits for is retried at once (Stripe retries when the customer updates their method).
        const { customer_id, payment_method_id } = event.data as { customer_id: string; payment_method_id: string | null };
        if (!payment_method_id) return undefined;
        return { lane: customer_id, command: { type: 'RetryFailedInvoices' as const, data: { customer_id, occasion: `default:${event.id}` } } };
      }
      case 'PaymentCreated': {
        const { payment_id, invoice_id } = (event as unknown as PaymentCreated).data;
        return { lane: invoice_id, command: { type: 'ChargePayment' as const, data: { payment_id } } };
      }
      default: {
        if (!OUTCOMES.includes(event.type as PaymentEvent['type'])) return undefined;
        const { payment_id } = event.data as { payment_id: string };
        return { lane: payment_id, command: { type: 'RecordPaymentOnInvoice' as const, data: { payment_id } } };
      }
    }
  }

  async dispatch(step: FlowStep, context: RequestContext): Promise<void> {
    switch (step.type) {
      case 'AutoChargeInvoice':
        return this.commands.execute(new AutoChargeInvoiceCommand(context, step.data.invoice_id));
      case 'CreatePayment':
        return this.commands.execute(new CreatePaymentFromAttemptCommand(context, step.data));
      case 'ChargePayment':
        return this.commands.execute(new ChargePaymentCommand(context, step.data.payment_id));
      case 'RecordPaymentOnInvoice':
        return this.commands.execute(new RecordPaymentOnInvoiceCommand(context, step.data.payment_id));
      case 'RetryFailedInvoices':
        return this.commands.execute(new RetryFailedInvoicesOfCustomerCommand(context, step.data.customer_id, step.data.occasion));
      case 'CancelOpenPayment':
        return this.commands.execute(new CancelOpenPaymentCommand(context, step.data.invoice_id));
    }
  }
}
