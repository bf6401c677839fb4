import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { InvoiceRetriesExhausted } from '@tally/invoicing';
import { asEventOf, Commands, type Reaction } from '@tally/runtime';
import { subscriptionAggregate } from './subscription.aggregate';
import { cancelWithoutFinalInvoice } from './subscription-changes';

type CancelForFailedPayment = { type: 'CancelForFailedPayment'; data: { subscription_id: string } };

/**
 * Dunning's final action on a subscription, taken by its own context: when the retries of one of
 * its invoices are used up with `cancel_subscription`, the subscription is canceled at once
 * (`payment_failed`, no final invoice), as Stripe cancels after its last retry. A write-off is the
 * invoice's own; `leave_past_due` changes nothing.
 */
@Injectable()
export class DunningFinalActionReaction implements Reaction<CancelForFailedPayment> {
  readonly name = 'dunning_final_action';
  readonly streamPrefixes = ['invoice-'];

  constructor(private readonly commands: Commands) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'InvoiceRetriesExhausted') return undefined;
    const { subscription_id, final_action } = asEventOf<InvoiceRetriesExhausted>(event).data;
    if (final_action !== 'cancel_subscription' || !subscription_id) return undefined;
    return { lane: subscription_id, command: { type: 'CancelForFailedPayment' as const, data: { subscription_id } } };
  }

  async dispatch({ data }: CancelForFailedPayment, context: RequestContext): Promise<void> {
    await this.commands.send(subscriptionAggregate, data.subscription_id, cancelWithoutFinalInvoice(data.subscription_id, 'payment_failed'), context);
  }
}
