import { assertNever, type Command, type Decider } from '@tally/kernel';
import type { TestClockCustomerRecorded, TestClockCustomersEvent } from './test-clock-customers.events';

/**
 * The customers ever created on a test clock, kept on the write side from the customers' events,
 * so that deleting the clock deletes them from the event store's knowledge rather than a read model's.
 * A customer deleted since stays listed: deleting it again changes nothing.
 */
export type TestClockCustomersState = { status: 'none' } | { status: 'indexed'; testClockId: string; customerIds: ReadonlySet<string> };

export type RecordTestClockCustomer = Command<'RecordTestClockCustomer', TestClockCustomerRecorded['data']>;

export type TestClockCustomersCommand = RecordTestClockCustomer;

export const testClockCustomersDecider: Decider<TestClockCustomersState, TestClockCustomersCommand, TestClockCustomersEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordTestClockCustomer':
        return state.status === 'indexed' && state.customerIds.has(command.data.customer_id) ? [] : [{ type: 'TestClockCustomerRecorded', data: command.data }];
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TestClockCustomerRecorded': {
        const known = state.status === 'indexed' ? state.customerIds : [];
        return { status: 'indexed', testClockId: event.data.test_clock_id, customerIds: new Set([...known, event.data.customer_id]) };
      }
      default:
        return assertNever(event.type);
    }
  },
};

export const customersOnTestClock = (state: TestClockCustomersState): readonly string[] => (state.status === 'none' ? [] : [...state.customerIds]);
