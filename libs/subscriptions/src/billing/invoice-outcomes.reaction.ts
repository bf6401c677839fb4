import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { InvoicePaid, InvoicePaymentFailed } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { Commands, type Reaction } from '@tally/runtime';
import type { MarkPastDue, RecordInvoicePaid } from '../domain/subscription.decider';
import { subscriptionAggregate } from '../subscription.aggregate';

/**
 * The payment of a subscription's invoice reaches the subscription: paid, it activates one that
 * awaited its first payment, announces the activation of one created active, or makes a past-due
 * one active again; failed, it makes an active one past due (dunning then retries it). The
 * subscription decides whether it matters: a paid renewal of an active subscription writes nothing.
 */
@Injectable()
export class InvoiceOutcomesReaction implements Reaction<RecordInvoicePaid | MarkPastDue> {
  readonly name = 'subscription_invoice_outcomes';
  readonly streamPrefixes = ['invoice-'];

  constructor(private readonly commands: Commands) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'InvoicePaid' && event.type !== 'InvoicePaymentFailed') return undefined;
    const { invoice_id, subscription_id } = event.data as (InvoicePaid | InvoicePaymentFailed)['data'];
    if (subscription_id === null) return undefined;
    const type = event.type === 'InvoicePaid' ? ('RecordInvoicePaid' as const) : ('MarkPastDue' as const);
    return { lane: subscription_id, command: { type, data: { subscription_id, invoice_id } } };
  }

  async dispatch(command: RecordInvoicePaid | MarkPastDue, context: RequestContext): Promise<void> {
    await this.commands.send(subscriptionAggregate, command.data.subscription_id, command, context);
  }
}
