import { assertNever, type Command, type Decider } from '@tally/kernel';
import type { CustomerSubscriptionRecorded, CustomerSubscriptionsEvent } from './customer-subscriptions.events';

/**
 * The subscriptions of a customer that may still bill, each with the payment method it names (null:
 * the customer's default), kept on the write side from the subscriptions' events, so that writes
 * (detaching a payment method, canceling a deleted customer's subscriptions) decide from the event
 * store rather than from a read model.
 */
export type CustomerSubscriptionsState =
  | { status: 'none' }
  | { status: 'indexed'; customerId: string; billing: ReadonlyMap<string, string | null> };

export type RecordCustomerSubscription = Command<'RecordCustomerSubscription', CustomerSubscriptionRecorded['data']>;

export type CustomerSubscriptionsCommand = RecordCustomerSubscription;

export const customerSubscriptionsDecider: Decider<CustomerSubscriptionsState, CustomerSubscriptionsCommand, CustomerSubscriptionsEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordCustomerSubscription': {
        const { subscription_id, billing, payment_method_id } = command.data;
        const known = state.status === 'indexed' ? state.billing : new Map<string, string | null>();
        const unchanged = billing ? known.has(subscription_id) && known.get(subscription_id) === payment_method_id : !known.has(subscription_id);
        return unchanged ? [] : [{ type: 'CustomerSubscriptionRecorded', data: command.data }];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CustomerSubscriptionRecorded': {
        const { customer_id, subscription_id, billing, payment_method_id } = event.data;
        const next = new Map(state.status === 'indexed' ? state.billing : []);
        if (billing) next.set(subscription_id, payment_method_id);
        else next.delete(subscription_id);
        return { status: 'indexed', customerId: customer_id, billing: next };
      }
      default:
        return assertNever(event.type);
    }
  },
};

/** A subscription of the index that may still bill with `paymentMethodId` as its own (null: one that names none), if any. */
export function subscriptionBillingWith(state: CustomerSubscriptionsState, paymentMethodId: string | null): string | undefined {
  if (state.status === 'none') return undefined;
  for (const [subscriptionId, method] of state.billing) if (method === paymentMethodId) return subscriptionId;
  return undefined;
}

/** The subscriptions of the index that may still bill. */
export const billingSubscriptions = (state: CustomerSubscriptionsState): readonly string[] => (state.status === 'none' ? [] : [...state.billing.keys()]);
