import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import { TEST_CLOCK_AGGREGATE } from './clocks';
import { testClockDecider, type TestClockCommand, type TestClockState } from './domain/test-clock.decider';
import type { TestClockEvent } from './domain/test-clock.events';
import { testClockView, type TestClockResource } from './test-clock.view';

export const testClockAggregate: AggregateDefinition<TestClockState, TestClockCommand, TestClockEvent, TestClockResource> = {
  type: TEST_CLOCK_AGGREGATE,
  decider: testClockDecider,
  view: testClockView,
  notFound: (id) => DomainError.notFound('test_clock.not_found', `No test clock ${id}`),
};
