import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { billingSubscriptions, customerSubscriptionsDecider, subscriptionBillingWith, type CustomerSubscriptionsState } from './customer-subscriptions.decider';
import type { CustomerSubscriptionRecorded, CustomerSubscriptionsEvent } from './customer-subscriptions.events';

const spec = DeciderSpecification.for(customerSubscriptionsDecider);
const customer_id = 'cus_1';
const recorded = (subscription_id: string, billing: boolean, payment_method_id: string | null): CustomerSubscriptionRecorded => ({
  type: 'CustomerSubscriptionRecorded',
  data: { customer_id, subscription_id, billing, payment_method_id },
});
const record = (subscription_id: string, billing: boolean, payment_method_id: string | null) => ({ type: 'RecordCustomerSubscription' as const, data: recorded(subscription_id, billing, payment_method_id).data });
const folded = (events: CustomerSubscriptionsEvent[]): CustomerSubscriptionsState => events.reduce(customerSubscriptionsDecider.evolve, customerSubscriptionsDecider.initialState());

describe('customer subscriptions index', () => {
  it('records a subscription that bills, with the method it names', () => {
    spec.given([]).when(record('sub_1', true, 'pm_1')).then([recorded('sub_1', true, 'pm_1')]);
  });

  it('records a change of method, and an end of billing', () => {
    spec.given([recorded('sub_1', true, 'pm_1')]).when(record('sub_1', true, null)).then([recorded('sub_1', true, null)]);
    spec.given([recorded('sub_1', true, 'pm_1')]).when(record('sub_1', false, 'pm_1')).then([recorded('sub_1', false, 'pm_1')]);
  });

  it('records nothing that it already holds: the same method, or a subscription that bills no more', () => {
    spec.given([recorded('sub_1', true, 'pm_1')]).when(record('sub_1', true, 'pm_1')).thenNothingHappens();
    spec.given([recorded('sub_1', true, 'pm_1'), recorded('sub_1', false, 'pm_1')]).when(record('sub_1', false, null)).thenNothingHappens();
    spec.given([]).when(record('sub_2', false, null)).thenNothingHappens();
  });

  it('tells which subscription bills with a method, or with none of its own', () => {
    const index = folded([recorded('sub_1', true, 'pm_1'), recorded('sub_2', true, null), recorded('sub_3', true, 'pm_3'), recorded('sub_3', false, 'pm_3')]);
    expect([subscriptionBillingWith(index, 'pm_1'), subscriptionBillingWith(index, null), subscriptionBillingWith(index, 'pm_3')]).toEqual(['sub_1', 'sub_2', undefined]);
    expect(billingSubscriptions(index)).toEqual(['sub_1', 'sub_2']);
    expect([subscriptionBillingWith(folded([]), null), billingSubscriptions(folded([]))]).toEqual([undefined, []]);
  });
});
