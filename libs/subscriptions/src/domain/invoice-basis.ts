import type { Subscription } from './subscription.decider';
import type { BillingReason, Collection, InvoiceBasis, SubscriptionEvent } from './subscription.events';

/**
 * The basis of the invoice `event` calls for, from the subscription as it was before the event;
 * undefined when it calls for none. A period's invoice comes with its activation (after a trial
 * too), its renewal (with the closed period's usage) or its wait for a first payment; a plan
 * change `always_invoice` bills its prorations at once; the end of a paid subscription bills
 * its last usage and what is still pending. Before a first paid period there is nothing to bill
 * at its end, and an activation by the payment of the invoice its wait issued bills nothing again.
 */
export function invoiceBasisOf(before: Subscription, event: SubscriptionEvent): InvoiceBasis | undefined {
  const paid = before.paidPeriods > 0;
  const basis = (billing_reason: BillingReason, plan_code: string, period_number: number, usageUntil: string | null): InvoiceBasis => ({
    customer_id: before.customerId,
    billing_reason,
    plan_code,
    coupons: [...before.coupons],
    period_number,
    usage: usageUntil !== null && Date.parse(usageUntil) > Date.parse(before.period.start) ? { plan_code: before.planCode, period: { start: before.period.start, end: usageUntil } } : null,
    collection: collectionOf(before),
  });
  switch (event.type) {
    case 'SubscriptionAwaitingPayment':
      return basis('subscription_create', event.data.terms.plan_code, 1, null);
    case 'SubscriptionActivated':
      if (before.status === 'pending_activation') return undefined;
      return basis(before.status === 'trialing' ? 'subscription_cycle' : 'subscription_create', event.data.terms.plan_code, before.paidPeriods + 1, null);
    case 'SubscriptionRenewed':
      return basis('subscription_cycle', event.data.terms.plan_code, before.paidPeriods + 1, before.period.end);
    case 'SubscriptionPlanChanged':
      return event.data.invoice_now && paid ? basis('subscription_update', before.planCode, before.paidPeriods, null) : undefined;
    case 'SubscriptionCanceled':
      return event.data.final_invoice !== false && paid ? basis('subscription_cancel', before.planCode, before.paidPeriods, event.data.canceled_at) : undefined;
    case 'SubscriptionEnded':
      return paid ? basis('subscription_cycle', before.planCode, before.paidPeriods, event.data.ended_at) : undefined;
    default:
      return undefined;
  }
}

/** Invoices issued while paused follow the pause's behaviour; the others are charged. */
const collectionOf = (subscription: Subscription): Collection => (subscription.status === 'paused' && subscription.pauseBehavior !== null ? subscription.pauseBehavior : 'charge');
