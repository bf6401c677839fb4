import { indexMembers, membershipIndex, type Command, type MembershipIndexState } from '@tally/kernel';
import type { CustomerSubscriptionRecorded } from './customer-subscriptions.events';

/**
 * The subscriptions of a customer that may still bill, each with the payment method it names (null:
 * the customer's default), kept on the write side from the subscriptions' events, so that writes
 * (detaching a payment method, canceling a deleted customer's subscriptions) decide from the event
 * store rather than from a read model.
 */
export type CustomerSubscriptionsState = MembershipIndexState<string | null>;

export type RecordCustomerSubscription = Command<'RecordCustomerSubscription', CustomerSubscriptionRecorded['data']>;

export type CustomerSubscriptionsCommand = RecordCustomerSubscription;

export const customerSubscriptionsDecider = membershipIndex(
  { command: 'RecordCustomerSubscription', event: 'CustomerSubscriptionRecorded' },
  ({ subscription_id, billing, payment_method_id }: CustomerSubscriptionRecorded['data']) => ({ member: subscription_id, joined: billing, value: payment_method_id }),
);

/** A subscription of the index that may still bill with `paymentMethodId` as its own (null: one that names none), if any. */
export function subscriptionBillingWith(state: CustomerSubscriptionsState, paymentMethodId: string | null): string | undefined {
  for (const [subscriptionId, method] of indexMembers(state)) if (method === paymentMethodId) return subscriptionId;
  return undefined;
}

/** The subscriptions of the index that may still bill. */
export const billingSubscriptions = (state: CustomerSubscriptionsState): readonly string[] => [...indexMembers(state).keys()];
