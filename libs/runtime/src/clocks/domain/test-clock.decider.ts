import { assertNever, DomainError, type Command, type Decider } from '@tally/kernel';
import type { TestClockEvent } from './test-clock.events';

/** How far one advance may move a clock: two years, far enough for any billing cycle's next step (Stripe allows two intervals). */
export const MAX_ADVANCE_MS = 2 * 366 * 24 * 3_600_000;

export type TestClockState =
  | { status: 'none' }
  | { status: 'ready'; id: string; now: string }
  | { status: 'advancing'; id: string; now: string; target: string }
  | { status: 'deleted'; id: string };

export type CreateTestClock = Command<'CreateTestClock', { test_clock_id: string; name: string | null; frozen_time: string }>;
export type AdvanceTestClock = Command<'AdvanceTestClock', { test_clock_id: string; frozen_time: string }>;
/** The advancer's steps: move to the next timers' due time, then to the target. */
export type MoveTestClock = Command<'MoveTestClock', { test_clock_id: string; now: string }>;
export type CompleteTestClockAdvance = Command<'CompleteTestClockAdvance', { test_clock_id: string }>;
export type DeleteTestClock = Command<'DeleteTestClock', { test_clock_id: string }>;

export type TestClockCommand = CreateTestClock | AdvanceTestClock | MoveTestClock | CompleteTestClockAdvance | DeleteTestClock;

const notFound = (id: string) => DomainError.notFound('test_clock.not_found', `No test clock ${id}`);

export const testClockDecider: Decider<TestClockState, TestClockCommand, TestClockEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    const { test_clock_id } = command.data;
    switch (command.type) {
      case 'CreateTestClock':
        if (state.status !== 'none') return [];
        return [{ type: 'TestClockCreated', data: { test_clock_id, name: command.data.name, now: command.data.frozen_time } }];
      case 'AdvanceTestClock': {
        if (state.status === 'none' || state.status === 'deleted') throw notFound(test_clock_id);
        const target = command.data.frozen_time;
        if (state.status === 'advancing') {
          if (state.target === target) return [];
          throw DomainError.conflict('test_clock.advancing', `The test clock is still advancing to ${state.target}; wait until its status is ready`);
        }
        if (Date.parse(target) <= Date.parse(state.now)) {
          throw DomainError.invalid('test_clock.advance_backwards', `frozen_time must be later than the clock's time ${state.now}`, [
            { field: 'frozen_time', code: 'test_clock.advance_backwards', message: `later than ${state.now}` },
          ]);
        }
        if (Date.parse(target) - Date.parse(state.now) > MAX_ADVANCE_MS) {
          throw DomainError.invalid('test_clock.advance_too_far', 'One advance moves a test clock at most two years; advance in steps', [
            { field: 'frozen_time', code: 'test_clock.advance_too_far', message: 'at most two years after the clock’s time' },
          ]);
        }
        return [{ type: 'TestClockAdvanceStarted', data: { test_clock_id, now: state.now, target } }];
      }
      case 'MoveTestClock': {
        if (state.status !== 'advancing') return [];
        const { now } = command.data;
        if (Date.parse(now) <= Date.parse(state.now) || Date.parse(now) > Date.parse(state.target)) return [];
        return [{ type: 'TestClockMoved', data: { test_clock_id, now } }];
      }
      case 'CompleteTestClockAdvance':
        if (state.status !== 'advancing') return [];
        return [{ type: 'TestClockAdvanceCompleted', data: { test_clock_id, now: state.target } }];
      case 'DeleteTestClock':
        if (state.status === 'none' || state.status === 'deleted') throw notFound(test_clock_id);
        return [{ type: 'TestClockDeleted', data: { test_clock_id } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    const id = event.data.test_clock_id;
    switch (event.type) {
      case 'TestClockCreated':
      case 'TestClockAdvanceCompleted':
        return { status: 'ready', id, now: event.data.now };
      case 'TestClockAdvanceStarted':
        return { status: 'advancing', id, now: event.data.now, target: event.data.target };
      case 'TestClockMoved':
        return state.status === 'advancing' ? { ...state, now: event.data.now } : state;
      case 'TestClockDeleted':
        return { status: 'deleted', id };
      default:
        return assertNever(event);
    }
  },
};
