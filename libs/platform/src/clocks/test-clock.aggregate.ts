import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import { TEST_CLOCK_AGGREGATE } from './clocks';
import { testClockDecider, type TestClockCommand, type TestClockState } from './domain/test-clock.decider';
import type { TestClockEvent } from './domain/test-clock.events';

export const testClockAggregate: AggregateDefinition<TestClockState, TestClockCommand, TestClockEvent> = {
  type: TEST_CLOCK_AGGREGATE,
  decider: testClockDecider,
  notFound: (id) => DomainError.notFound('test_clock.not_found', `No test clock ${id}`),
};
