import { Injectable } from '@nestjs/common';
import { derivedId } from '@tally/kernel';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceAggregate, invoiceCollection, isPayable } from '@tally/invoicing';
import type { DunningCommand } from './domain/dunning.decider';
import { failedInvoicesAggregate, failedInvoicesIdOf } from './failed-invoices.aggregate';
import { InvoicePayer } from './invoice-payer';

/**
 * What dunning does to a subscription invoice: retries its payment, ends it with its final action,
 * and retries a customer's failed invoices at once when the customer gets a new default method.
 */
@Injectable()
export class InvoiceDunning {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly payer: InvoicePayer,
  ) {}

  /**
   * Pays the invoice again, once per `occasion` (a dunning retry, a new default method): its payment
   * id derives from both. Only while something is due and no other attempt is under way; answers
   * whether there was anything left to collect. The method: the one given (a new default), else the
   * invoice's (see InvoiceFacts.paymentMethodId).
   */
  async retry(context: RequestContext, invoiceId: string, occasion: string, paymentMethodId?: string): Promise<boolean> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (state.status === 'none' || !isPayable(state)) return false;
    if (state.openPayment) return true;
    await this.payer.pay(context, invoiceId, { reason: 'retry', paymentId: derivedId('pay', [invoiceId, occasion]), paymentMethodId });
    return true;
  }

  /** The retries are used up: the invoice records it, written off by the policy or, for its subscription's context, to cancel it. */
  async exhaust(context: RequestContext, { invoice_id, action }: Extract<DunningCommand, { type: 'ApplyDunningFinalAction' }>['data']): Promise<void> {
    await this.commands.send(invoiceCollection, invoice_id, { type: 'ExhaustInvoiceRetries', data: { invoice_id, final_action: action } }, context);
  }

  /** A subscription invoice's payment failed: its customer's index holds it until nothing is left to collect. */
  async recordFailure(context: RequestContext, customerId: string, invoiceId: string): Promise<void> {
    await this.commands.send(failedInvoicesAggregate, failedInvoicesIdOf(customerId), { type: 'RecordFailedInvoice', data: { customer_id: customerId, invoice_id: invoiceId } }, context);
  }

  /** The customer has a new default method: each of its failed subscription invoices is retried with it at once; those settled meanwhile leave the index. */
  async retryFailedInvoicesOf(context: RequestContext, customerId: string, paymentMethodId: string, occasion: string): Promise<void> {
    const id = failedInvoicesIdOf(customerId);
    const { state } = await this.runtime.load(this.runtime.cellOf(context), failedInvoicesAggregate, id, context);
    const settled: string[] = [];
    for (const invoiceId of state.invoiceIds) if (!(await this.retry(context, invoiceId, occasion, paymentMethodId))) settled.push(invoiceId);
    if (settled.length > 0) await this.commands.send(failedInvoicesAggregate, id, { type: 'ForgetFailedInvoices', data: { customer_id: customerId, invoice_ids: settled } }, context);
  }
}
