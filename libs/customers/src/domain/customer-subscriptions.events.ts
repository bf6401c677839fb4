import type { Event } from '@tally/kernel';

/**
 * What the customer's subscription index learned of one subscription: the payment method it names
 * as its own (null: it bills the customer's default), or, with `billing` false, that it will bill
 * no more (canceled, ended, expired). Holds ids only.
 */
export type CustomerSubscriptionRecorded = Event<
  'CustomerSubscriptionRecorded',
  { customer_id: string; subscription_id: string; billing: boolean; payment_method_id: string | null }
>;

export type CustomerSubscriptionsEvent = CustomerSubscriptionRecorded;
