import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, type Reaction } from '@tally/runtime';
import { CustomerSubscriptions } from '@tally/customers';
import { LIVE } from './domain/subscription.decider';
import type { SubscriptionEvent } from './domain/subscription.events';
import { subscriptionAggregate } from './subscription.aggregate';

/** The events that change what a subscription bills with, or whether it still bills. */
const CHANGES_BILLING: ReadonlySet<SubscriptionEvent['type']> = new Set(['SubscriptionCreated', 'SubscriptionUpdated', 'SubscriptionCanceled', 'SubscriptionEnded', 'SubscriptionIncompleteExpired']);

type IndexSubscription = { type: 'IndexSubscription'; data: { subscription_id: string } };

/**
 * Keeps the customer's subscription index (customers' write side) as the subscription stands: the
 * method it names, and whether it may still bill. Each event records the subscription as its
 * stream shows it when the command runs, so events handled late or twice record the same thing.
 */
@Injectable()
export class CustomerSubscriptionsIndexReaction implements Reaction<IndexSubscription> {
  readonly name = 'customer_subscriptions_index';
  readonly streamPrefixes = ['subscription-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly customerSubscriptions: CustomerSubscriptions,
  ) {}

  commandOf(event: RecordedEvent) {
    if (!CHANGES_BILLING.has(event.type as SubscriptionEvent['type'])) return undefined;
    const { subscription_id } = event.data as { subscription_id: string };
    return { lane: subscription_id, command: { type: 'IndexSubscription' as const, data: { subscription_id } } };
  }

  async dispatch({ data }: IndexSubscription, context: RequestContext): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), subscriptionAggregate, data.subscription_id, context);
    if (state.status === 'none') return;
    await this.customerSubscriptions.record(context, {
      customer_id: state.customerId,
      subscription_id: state.id,
      billing: LIVE.includes(state.status),
      payment_method_id: state.defaultPaymentMethodId,
    });
  }
}
