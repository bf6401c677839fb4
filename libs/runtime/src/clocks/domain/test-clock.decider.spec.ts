import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { testClockDecider } from './test-clock.decider';
import type { TestClockEvent } from './test-clock.events';

const spec = DeciderSpecification.for(testClockDecider);
const id = 'clock_01JCLOCK000000000000000000';
const created: TestClockEvent = { type: 'TestClockCreated', data: { test_clock_id: id, name: 'Annual plan', now: '2026-01-31T00:00:00.000Z' } };
const advancing: TestClockEvent = { type: 'TestClockAdvanceStarted', data: { test_clock_id: id, now: '2026-01-31T00:00:00.000Z', target: '2026-04-01T00:00:00.000Z' } };

describe('test clock decider', () => {
  it('creates a clock frozen at its time', () => {
    spec.given([]).when({ type: 'CreateTestClock', data: { test_clock_id: id, name: 'Annual plan', frozen_time: '2026-01-31T00:00:00.000Z' } }).then([created]);
  });

  it('starts an advance to a later time', () => {
    spec.given([created]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-04-01T00:00:00.000Z' } }).then([advancing]);
  });

  it('refuses to go back, to stand still, or to leap more than two years', () => {
    spec.given([created]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-01-30T00:00:00.000Z' } }).thenFails('test_clock.advance_backwards');
    spec.given([created]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-01-31T00:00:00.000Z' } }).thenFails('test_clock.advance_backwards');
    spec.given([created]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2028-03-01T00:00:00.000Z' } }).thenFails('test_clock.advance_too_far');
  });

  it('refuses another advance while one runs; the same one again is already under way', () => {
    spec.given([created, advancing]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-05-01T00:00:00.000Z' } }).thenFails('test_clock.advancing');
    spec.given([created, advancing]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-04-01T00:00:00.000Z' } }).thenNothingHappens();
  });

  it('moves forward within the advance only, then completes at the target', () => {
    spec.given([created, advancing]).when({ type: 'MoveTestClock', data: { test_clock_id: id, now: '2026-02-28T00:00:00.000Z' } }).then([
      { type: 'TestClockMoved', data: { test_clock_id: id, now: '2026-02-28T00:00:00.000Z' } },
    ]);
    spec.given([created, advancing]).when({ type: 'MoveTestClock', data: { test_clock_id: id, now: '2026-05-01T00:00:00.000Z' } }).thenNothingHappens();
    spec.given([created]).when({ type: 'MoveTestClock', data: { test_clock_id: id, now: '2026-02-28T00:00:00.000Z' } }).thenNothingHappens();
    spec.given([created, advancing]).when({ type: 'CompleteTestClockAdvance', data: { test_clock_id: id } }).then([
      { type: 'TestClockAdvanceCompleted', data: { test_clock_id: id, now: '2026-04-01T00:00:00.000Z' } },
    ]);
  });

  it('deletes a clock once; a deleted clock does not exist', () => {
    spec.given([created]).when({ type: 'DeleteTestClock', data: { test_clock_id: id } }).then([{ type: 'TestClockDeleted', data: { test_clock_id: id } }]);
    spec.given([created, { type: 'TestClockDeleted', data: { test_clock_id: id } }]).when({ type: 'DeleteTestClock', data: { test_clock_id: id } }).thenFails('test_clock.not_found');
    spec.given([]).when({ type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: '2026-04-01T00:00:00.000Z' } }).thenFails('test_clock.not_found');
  });
});
