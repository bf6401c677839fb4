import { indexMembers, membershipIndex, type Command, type MembershipIndexState } from '@tally/kernel';
import type { TestClockCustomerRecorded } from './test-clock-customers.events';

/**
 * The customers ever created on a test clock, kept on the write side from the customers' events,
 * so that deleting the clock deletes them from the event store's knowledge rather than a read model's.
 * A customer deleted since stays listed: deleting it again changes nothing.
 */
export type TestClockCustomersState = MembershipIndexState<true>;

export type RecordTestClockCustomer = Command<'RecordTestClockCustomer', TestClockCustomerRecorded['data']>;

export type TestClockCustomersCommand = RecordTestClockCustomer;

export const testClockCustomersDecider = membershipIndex(
  { command: 'RecordTestClockCustomer', event: 'TestClockCustomerRecorded' },
  ({ customer_id }: TestClockCustomerRecorded['data']) => ({ member: customer_id, joined: true, value: true as const }),
);

export const customersOnTestClock = (state: TestClockCustomersState): readonly string[] => [...indexMembers(state).keys()];
