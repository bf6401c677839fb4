import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import { invoiceAggregate, isPayable, type InvoicePaid, type InvoicePaymentFailed } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, type Reaction } from '@tally/runtime';
import type { MarkPastDue, RecordInvoicePaid } from '../domain/subscription.decider';
import { subscriptionAggregate } from '../subscription.aggregate';

/**
 * The payment of a subscription's invoice reaches the subscription: paid, it activates one that
 * awaited its first payment, announces the activation of one created active, or makes a past-due
 * one active again; failed, it makes an active one past due (dunning then retries it), unless the
 * invoice was settled meanwhile (a retry paid it, it was voided): then the failure is history, and
 * a log read again from an earlier checkpoint cannot make a healthy subscription past due. The
 * subscription decides whether the rest matters: a paid renewal of an active subscription writes nothing.
 */
@Injectable()
export class InvoiceOutcomesReaction implements Reaction<RecordInvoicePaid | MarkPastDue> {
  readonly name = 'subscription_invoice_outcomes';
  readonly streamPrefixes = ['invoice-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'InvoicePaid' && event.type !== 'InvoicePaymentFailed') return undefined;
    const { invoice_id, subscription_id } = event.data as (InvoicePaid | InvoicePaymentFailed)['data'];
    if (subscription_id === null) return undefined;
    const type = event.type === 'InvoicePaid' ? ('RecordInvoicePaid' as const) : ('MarkPastDue' as const);
    return { lane: subscription_id, command: { type, data: { subscription_id, invoice_id } } };
  }

  async dispatch(command: RecordInvoicePaid | MarkPastDue, context: RequestContext): Promise<void> {
    if (command.type === 'MarkPastDue' && !(await this.stillDue(command.data.invoice_id, context))) return;
    await this.commands.send(subscriptionAggregate, command.data.subscription_id, command, context);
  }

  private async stillDue(invoiceId: string, context: RequestContext): Promise<boolean> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    return state.status !== 'none' && isPayable(state);
  }
}
