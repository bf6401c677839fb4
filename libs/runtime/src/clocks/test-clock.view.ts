import { assertNever } from '@tally/kernel';
import type { ResourceView } from '../public-events/resource-view';
import { TEST_CLOCK_AGGREGATE } from './clocks';
import type { TestClockEvent } from './domain/test-clock.events';

export interface TestClockResource {
  [field: string]: unknown;
  id: string;
  object: 'test_clock';
  name: string | null;
  /** The clock's time; while advancing, the time it is advancing to (as Stripe shows it). */
  frozen_time: string;
  status: 'ready' | 'advancing';
  livemode: false;
  created_at: string;
  updated_at: string;
}

/** A test clock as the API shows it (Stripe's shape). A deleted clock is gone. */
export const testClockView: ResourceView<TestClockResource, TestClockEvent> = {
  aggregateType: TEST_CLOCK_AGGREGATE,
  collection: 'test_clocks',

  apply(clock, event) {
    const at = event.metadata.occurred_at;
    switch (event.type) {
      case 'TestClockCreated':
        return { id: event.data.test_clock_id, object: 'test_clock', name: event.data.name, frozen_time: event.data.now, status: 'ready', livemode: false, created_at: at, updated_at: at };
      case 'TestClockAdvanceStarted':
        return clock && { ...clock, frozen_time: event.data.target, status: 'advancing', updated_at: at };
      case 'TestClockMoved':
        return clock;
      case 'TestClockAdvanceCompleted':
        return clock && { ...clock, frozen_time: event.data.now, status: 'ready', updated_at: at };
      case 'TestClockDeleted':
        return undefined;
      default:
        return assertNever(event);
    }
  },

  // Not in the spec's event list; an advance's end shows as status `ready`.
  publicTypes: [],
  publicType: () => undefined,
};
