import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import { testClockCustomersDecider, type TestClockCustomersCommand, type TestClockCustomersState } from './domain/test-clock-customers.decider';
import type { TestClockCustomersEvent } from './domain/test-clock-customers.events';

/** One stream per test clock, `test_clock_customers-<clock id>`: internal, no view and no public event. */
export const testClockCustomersAggregate: AggregateDefinition<TestClockCustomersState, TestClockCustomersCommand, TestClockCustomersEvent> = {
  type: 'test_clock_customers',
  decider: testClockCustomersDecider,
  notFound: (id) => DomainError.notFound('test_clock.not_found', `No test clock ${id}`),
};
