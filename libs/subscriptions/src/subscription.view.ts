import { keyedObject } from '@tally/kernel';
import { DAY_MS } from './domain/subscription.decider';
import { publicTypesOf, type ResourceView } from '@tally/runtime';
import type { Commitment, PauseBehavior, ProrationItem, SubscriptionEvent, SubscriptionStatus } from './domain/subscription.events';

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
  /** The trial that applied, in days: the subscription's own, else the plan's; 0 without one. */
  trial_days: number;
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
  ended_at: string | null;
  commitment: Commitment | null;
  /** When the commitment's current term ends (computed at activation and at each renewal of the term). */
  commitment_end_at: string | null;
  /** Changes that take effect at the next period boundary (`proration_behavior: none`, quantities `next_period`). */
  pending_update: { plan_code: string | null; quantities: Record<string, number>; effective_at: string } | null;
  /** Prorations waiting for the next invoice. */
  pending_prorations: ProrationItem[];
  /** The sandbox test clock the subscription lives on (its customer's). */
  test_clock: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

const PUBLIC_TYPES: Record<SubscriptionEvent['type'], string | undefined> = {
  SubscriptionCreated: 'subscription.created',
  // At creation it waits for the first invoice's payment (see publicType).
  SubscriptionActivated: 'subscription.activated',
  SubscriptionFirstInvoicePaid: 'subscription.activated',
  SubscriptionRecovered: 'subscription.activated',
  SubscriptionRenewed: undefined,
  SubscriptionTrialWillEnd: 'subscription.trial_will_end',
  SubscriptionUpdated: 'subscription.updated',
  SubscriptionPlanChanged: 'subscription.updated',
  SubscriptionPlanChangeScheduled: 'subscription.updated',
  SubscriptionQuantityChanged: 'subscription.updated',
  SubscriptionQuantityScheduled: 'subscription.quantity_scheduled',
  SubscriptionCommitmentEnding: 'subscription.commitment_ending',
  // The spec names no event for `ended`: the status change is an update, as Stripe's end of a schedule is.
  SubscriptionEnded: 'subscription.updated',
  SubscriptionPaused: 'subscription.paused',
  SubscriptionResumed: 'subscription.resumed',
  SubscriptionCancellationScheduled: 'subscription.updated',
  SubscriptionCanceled: 'subscription.canceled',
  SubscriptionPastDue: 'subscription.past_due',
  // Internal: `subscription.created` announced the wait; its invoice announces itself.
  SubscriptionAwaitingPayment: undefined,
  // The spec names no event for `incomplete_expired`: the status change is an update.
  SubscriptionIncompleteExpired: 'subscription.updated',
};

/** The subscription as the API shows it, folded from its events. */
export const subscriptionView: ResourceView<SubscriptionResource, SubscriptionEvent> = {
  aggregateType: 'subscription',
  collection: 'subscriptions',

  apply(subscription, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'SubscriptionCreated') {
      const { subscription_id, period_start, period_end, cadence: _cadence, prorate_first_period: _prorate, commitment, ...fields } = event.data;
      return {
        id: subscription_id,
        object: 'subscription',
        ...fields,
        quantities: keyedObject(Object.entries(fields.quantities)),
        coupons: [...fields.coupons],
        metadata: keyedObject(Object.entries(fields.metadata)),
        trial_days: trialDays(event.data),
        current_period_start: period_start,
        current_period_end: period_end,
        paused_until: null,
        pause_behavior: null,
        cancel_at: null,
        canceled_at: null,
        cancellation_reason: null,
        ended_at: null,
        commitment,
        commitment_end_at: null,
        pending_update: null,
        pending_prorations: [],
        test_clock: event.metadata.clock_id ?? null,
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!subscription) return undefined;
    const updated = { ...subscription, updated_at: at };
    switch (event.type) {
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed': {
        const { period_start, period_end, terms, commitment_end } = event.data;
        return {
          ...updated,
          status: event.type === 'SubscriptionActivated' ? 'active' : updated.status,
          current_period_start: period_start,
          current_period_end: period_end,
          plan_code: terms.plan_code,
          quantities: keyedObject(Object.entries(terms.quantities)),
          commitment_end_at: commitment_end,
          pending_update: null,
          pending_prorations: [],
        };
      }
      case 'SubscriptionTrialWillEnd':
      case 'SubscriptionCommitmentEnding':
      case 'SubscriptionFirstInvoicePaid':
        return subscription;
      case 'SubscriptionUpdated': {
        const { metadata, default_payment_method_id } = event.data;
        return {
          ...updated,
          ...(metadata !== undefined && { metadata: keyedObject(Object.entries(metadata)) }),
          ...(default_payment_method_id !== undefined && { default_payment_method_id }),
        };
      }
      case 'SubscriptionPlanChanged':
        return {
          ...updated,
          plan_code: event.data.plan_code,
          pending_update: withoutScheduled(updated.pending_update, { plan: true }),
          pending_prorations: event.data.invoice_now ? updated.pending_prorations : [...updated.pending_prorations, ...event.data.prorations],
        };
      case 'SubscriptionPlanChangeScheduled':
        return { ...updated, pending_update: { ...pendingUpdate(updated), plan_code: event.data.plan_code } };
      case 'SubscriptionQuantityChanged':
        return {
          ...updated,
          quantities: keyedObject([...Object.entries(updated.quantities), [event.data.meter, event.data.quantity]]),
          pending_update: withoutScheduled(updated.pending_update, { meter: event.data.meter }),
          pending_prorations: [...updated.pending_prorations, ...event.data.prorations],
        };
      case 'SubscriptionQuantityScheduled': {
        const pending = pendingUpdate(updated);
        return { ...updated, pending_update: { ...pending, quantities: keyedObject([...Object.entries(pending.quantities), [event.data.meter, event.data.quantity]]) } };
      }
      case 'SubscriptionEnded':
        return { ...updated, status: 'ended', ended_at: event.data.ended_at, pending_prorations: [] };
      case 'SubscriptionPaused':
        return { ...updated, status: 'paused', paused_until: event.data.until, pause_behavior: event.data.behavior };
      case 'SubscriptionResumed':
        return { ...updated, status: 'active', paused_until: null, pause_behavior: null };
      case 'SubscriptionCancellationScheduled':
        return { ...updated, cancel_at: event.data.cancel_at, cancellation_reason: event.data.reason };
      case 'SubscriptionCanceled':
        return { ...updated, status: 'canceled', canceled_at: event.data.canceled_at, cancellation_reason: event.data.reason ?? updated.cancellation_reason, pending_prorations: [] };
      case 'SubscriptionPastDue':
        return { ...updated, status: 'past_due' };
      case 'SubscriptionRecovered':
        return { ...updated, status: 'active' };
      case 'SubscriptionAwaitingPayment':
        return subscription;
      case 'SubscriptionIncompleteExpired':
        return { ...updated, status: 'incomplete_expired' };
    }
  },

  publicTypes: publicTypesOf(PUBLIC_TYPES),
  publicType: (event) => {
    // Consumers grant access on `subscription.activated`: a subscription created active announces it once its first invoice is paid.
    if (event.type === 'SubscriptionActivated' && event.data.first_payment_pending) return undefined;
    return PUBLIC_TYPES[event.type];
  },
};

/** A trial is the first period and lasts whole days from the creation, so its days are its length. */
const trialDays = ({ trial_end, period_start }: { trial_end: string | null; period_start: string }): number =>
  trial_end === null ? 0 : Math.round((Date.parse(trial_end) - Date.parse(period_start)) / DAY_MS);

/** The pending update, or an empty one that takes effect when the current period ends. */
const pendingUpdate = (subscription: SubscriptionResource): NonNullable<SubscriptionResource['pending_update']> =>
  subscription.pending_update ?? { plan_code: null, quantities: keyedObject(), effective_at: subscription.current_period_end };

/** A change made now replaces the one scheduled for the same plan or meter: the pending update without it, or null when nothing is left. */
function withoutScheduled(pending: SubscriptionResource['pending_update'], replaced: { plan: true } | { meter: string }): SubscriptionResource['pending_update'] {
  if (pending === null) return null;
  const plan_code = 'plan' in replaced ? null : pending.plan_code;
  const quantities = keyedObject(Object.entries(pending.quantities).filter(([meter]) => !('meter' in replaced) || meter !== replaced.meter));
  return plan_code === null && Object.keys(quantities).length === 0 ? null : { ...pending, plan_code, quantities };
}
