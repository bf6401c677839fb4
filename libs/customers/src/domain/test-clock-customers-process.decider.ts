import { oneCommandProcess, type ProcessInput } from '@tally/kernel';

export type TestClockDeleted = ProcessInput<'TestClockDeleted', { test_clock_id: string }>;

/** Deletes every customer created on the clock (the dispatch reads them from the clock's customer index). */
export type DeleteCustomersOnTestClock = { type: 'DeleteCustomersOnTestClock'; data: { test_clock_id: string } };

/** Deleting a test clock deletes the customers on it, as Stripe does: one command per deleted clock. */
export const testClockCustomersProcessDecider = oneCommandProcess((deleted: TestClockDeleted): DeleteCustomersOnTestClock => ({ type: 'DeleteCustomersOnTestClock', data: deleted.data }));
