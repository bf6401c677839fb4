import { keyedObject } from '@tally/kernel';
import type { HistoryEvent, ResourceView } from '@tally/runtime';
import type { PauseBehavior, SubscriptionEvent, SubscriptionStatus } from './domain/subscription.events';

export interface SubscriptionResource {
  [field: string]: unknown;
  id: string;
  object: 'subscription';
  customer_id: string;
  plan_code: string;
  status: SubscriptionStatus;
  currency: string;
  default_payment_method_id: string | null;
  trial_end: string | null;
  billing_cycle_anchor: string;
  current_period_start: string;
  current_period_end: string;
  quantities: Record<string, number>;
  coupons: string[];
  metadata: Record<string, string>;
  paused_until: string | null;
  pause_behavior: PauseBehavior | null;
  /** Set by a cancellation at period end: when the subscription will be canceled. */
  cancel_at: string | null;
  canceled_at: string | null;
  cancellation_reason: string | null;
  /** The sandbox test clock the subscription lives on (its customer's). */
  test_clock: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

const PUBLIC_TYPES: Record<SubscriptionEvent['type'], string | undefined> = {
  SubscriptionCreated: 'subscription.created',
  SubscriptionActivated: 'subscription.activated',
  SubscriptionRecovered: 'subscription.activated',
  SubscriptionRenewed: undefined,
  SubscriptionPaused: 'subscription.paused',
  SubscriptionResumed: 'subscription.resumed',
  SubscriptionCancellationScheduled: 'subscription.updated',
  SubscriptionCanceled: 'subscription.canceled',
  SubscriptionPastDue: 'subscription.past_due',
};

/** The subscription as the API shows it, folded from its events. */
export const subscriptionView: ResourceView<SubscriptionResource> = {
  aggregateType: 'subscription',
  collection: 'subscriptions',

  apply(subscription, stored) {
    const event = stored as unknown as SubscriptionEvent & HistoryEvent;
    const at = stored.metadata.occurred_at;
    if (event.type === 'SubscriptionCreated') {
      const { subscription_id, period_start, period_end, cadence: _cadence, ...fields } = event.data;
      return {
        id: subscription_id,
        object: 'subscription',
        ...fields,
        quantities: keyedObject(Object.entries(fields.quantities)),
        coupons: [...fields.coupons],
        metadata: keyedObject(Object.entries(fields.metadata)),
        current_period_start: period_start,
        current_period_end: period_end,
        paused_until: null,
        pause_behavior: null,
        cancel_at: null,
        canceled_at: null,
        cancellation_reason: null,
        test_clock: stored.metadata.clock_id ?? null,
        livemode: stored.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!subscription) return undefined;
    const updated = { ...subscription, updated_at: at };
    switch (event.type) {
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
        return { ...updated, status: event.type === 'SubscriptionActivated' ? 'active' : updated.status, current_period_start: event.data.period_start, current_period_end: event.data.period_end };
      case 'SubscriptionPaused':
        return { ...updated, status: 'paused', paused_until: event.data.until, pause_behavior: event.data.behavior };
      case 'SubscriptionResumed':
        return { ...updated, status: 'active', paused_until: null, pause_behavior: null };
      case 'SubscriptionCancellationScheduled':
        return { ...updated, cancel_at: event.data.cancel_at, cancellation_reason: event.data.reason };
      case 'SubscriptionCanceled':
        return { ...updated, status: 'canceled', canceled_at: event.data.canceled_at, cancellation_reason: event.data.reason ?? updated.cancellation_reason };
      case 'SubscriptionPastDue':
        return { ...updated, status: 'past_due' };
      case 'SubscriptionRecovered':
        return { ...updated, status: 'active' };
    }
  },

  publicType: (event) => PUBLIC_TYPES[event.type as SubscriptionEvent['type']],
};
