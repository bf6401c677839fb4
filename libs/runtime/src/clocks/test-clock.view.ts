import { defineView, type StampedResource } from '../resources/define-view';
import type { TestClockEvent } from './domain/test-clock.events';

export interface TestClockResource extends StampedResource {
  object: 'test_clock';
  name: string | null;
  /** The clock's time; while advancing, the time it is advancing to (as Stripe shows it). */
  frozen_time: string;
  status: 'ready' | 'advancing';
}

/** A test clock as the API shows it (Stripe's shape). A deleted clock is gone. */
export const testClockView = defineView<TestClockResource, TestClockEvent, 'TestClockCreated'>({
  object: 'test_clock',
  created: { type: 'TestClockCreated', fields: ({ name, now }) => ({ name, frozen_time: now, status: 'ready' }) },
  changes: {
    TestClockAdvanceStarted: (_clock, { target }) => ({ frozen_time: target, status: 'advancing' }),
    TestClockMoved: 'unchanged',
    TestClockAdvanceCompleted: (_clock, { now }) => ({ frozen_time: now, status: 'ready' }),
    TestClockDeleted: 'deleted',
  },
  // Not in the spec's event list; an advance's end shows as status `ready`.
  publicTypes: { TestClockCreated: undefined, TestClockAdvanceStarted: undefined, TestClockMoved: undefined, TestClockAdvanceCompleted: undefined, TestClockDeleted: undefined },
});
