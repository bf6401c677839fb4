import { Injectable } from '@nestjs/common';
import { Commands, type CommandOutcome } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceCollection } from '@tally/invoicing';
import type { PaymentState } from './domain/payment.decider';
import type { PaymentResource } from './payment.view';

/**
 * Takes a payment's outcome to its invoice: a success is applied (or, when the invoice can no
 * longer take it, recorded as not applied, which has it refunded), a failure or a cancel ends the
 * attempt. Each step is idempotent on the invoice, so the request that saw the outcome and the
 * payment flow reaction may both take it.
 */
@Injectable()
export class PaymentOutcomeOnInvoice {
  constructor(private readonly commands: Commands) {}

  async record(context: RequestContext, payment: Pick<CommandOutcome<PaymentState, PaymentResource>, 'state' | 'resource'>): Promise<void> {
    const { state, resource } = payment;
    if (state.status === 'none' || !resource) return;
    const invoice_id = state.invoiceId;
    const payment_id = state.id;
    // Charged back at once (the provider reported the dispute with the charge), the money was still taken first.
    if (state.status === 'succeeded' || state.status === 'charged_back') {
      await this.commands.send(invoiceCollection, invoice_id, { type: 'ApplyInvoicePayment', data: { invoice_id, payment_id, amount: state.amount } }, context);
    } else if (state.status === 'failed' || state.status === 'canceled') {
      const outcome = state.status;
      await this.commands.send(invoiceCollection, invoice_id, { type: 'CloseInvoicePayment', data: { invoice_id, payment_id, outcome, last_error: resource.last_error } }, context);
    }
  }

  /** After a change of the payment: the outcome it brought, if any, reaches the invoice at once (before a request answers). */
  async follow(context: RequestContext, changed: CommandOutcome<PaymentState, PaymentResource>): Promise<void> {
    if (changed.appended.length > 0) await this.record(context, changed);
  }
}
