import type { Event } from '@tally/kernel';

/** A customer was created on the sandbox test clock (ids only). */
export type TestClockCustomerRecorded = Event<'TestClockCustomerRecorded', { test_clock_id: string; customer_id: string }>;

export type TestClockCustomersEvent = TestClockCustomerRecorded;
