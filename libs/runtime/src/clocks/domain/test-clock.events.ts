import type { Event } from '@tally/kernel';

/*
 * A sandbox test clock (Stripe's test clocks). Every event but the deletion carries `now`: the
 * clock's time from that event on, which is "now" for everything that lives on the clock.
 */

export type TestClockCreated = Event<'TestClockCreated', { test_clock_id: string; name: string | null; now: string }>;

/** An advance to `target` began; timers due up to it fire in due order, each at its own time. */
export type TestClockAdvanceStarted = Event<'TestClockAdvanceStarted', { test_clock_id: string; now: string; target: string }>;

/** The clock moved to the due time of the next timers it fires. */
export type TestClockMoved = Event<'TestClockMoved', { test_clock_id: string; now: string }>;

export type TestClockAdvanceCompleted = Event<'TestClockAdvanceCompleted', { test_clock_id: string; now: string }>;

export type TestClockDeleted = Event<'TestClockDeleted', { test_clock_id: string }>;

export type TestClockEvent = TestClockCreated | TestClockAdvanceStarted | TestClockMoved | TestClockAdvanceCompleted | TestClockDeleted;
