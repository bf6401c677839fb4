import { assertNever, COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessOutput, type TimerFired } from '@tally/kernel';
import { retryDueAt, scheduleEndAt, type DunningFinalAction, type DunningTerms } from './dunning';
import { DunningTimers, type DunningTimer } from './dunning-timer';
import type { PaymentError } from './payment.events';

export type DunningInput =
  | ProcessInput<'PaymentFailed', { invoice_id: string; subscription_id: string; dunning: DunningTerms; last_error: PaymentError; occurred_at: string }>
  /** Paid, voided or written off: nothing is left to collect. */
  | ProcessInput<'InvoiceSettled', { invoice_id: string }>;

export type DunningCommand =
  | { type: 'RetryInvoicePayment'; data: { invoice_id: string; attempt: number } }
  | { type: 'ApplyDunningFinalAction'; data: { invoice_id: string; subscription_id: string; action: Exclude<DunningFinalAction, 'leave_past_due'> } };

type PaymentFailed = Extract<DunningInput, { type: 'PaymentFailed' }>;
type Output = ProcessOutput<DunningCommand>;

/** A schedule under way: the terms and the day of its first failure (which hold for the whole schedule), the failures so far and the timers it set. */
interface Schedule {
  invoiceId: string;
  subscriptionId: string;
  terms: DunningTerms;
  firstFailureAt: string;
  failures: number;
  timers: readonly DunningTimer[];
}

/** Before the invoice's first failed payment; while its payment is dunned; once it is settled (nothing more happens). */
export type DunningState = { status: 'awaiting_failure' } | ({ status: 'dunning' } & Schedule) | { status: 'settled' };

/**
 * One process per subscription invoice whose payment failed: it retries on the schedule of the
 * terms the invoice's first payment carried (only what the provider says is retriable, never
 * before its `retriable_after`), applies the final action once the retries are used up, and stops
 * when the invoice is settled. Its timers are on the invoice's clock, so test clocks drive it.
 */
export const dunningDecider: ProcessDecider<DunningState, DunningInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ status: 'awaiting_failure' }),

  evolve(state, message) {
    switch (message.kind) {
      case 'input':
        return afterInput(state, message.input);
      case 'schedule':
        return withTimer(state, DunningTimers.of(message.timerId));
      case 'command':
      case 'cancel':
      case 'event':
        return state;
      default:
        return assertNever(message);
    }
  },

  decide(input, state) {
    switch (input.type) {
      case 'PaymentFailed':
        return state.status === 'settled' ? [] : afterFailure(state.status === 'dunning' ? state : scheduleStartedBy(input), input.data.last_error);
      case TIMER_FIRED: {
        const timer = DunningTimers.of(input.data.timer_id);
        return state.status === 'dunning' && timer ? onTimer(state, timer) : [];
      }
      case 'InvoiceSettled':
        return state.status === 'dunning' ? state.timers.map((timer) => ({ kind: 'cancel', timerId: DunningTimers.idOf(timer) })) : [];
      case COMMAND_REJECTED:
        // A refused retry or final action leaves the schedule as it is.
        return [];
      default:
        return assertNever(input);
    }
  },
};

function afterInput(state: DunningState, input: DunningInput | TimerFired | CommandRejected): DunningState {
  switch (input.type) {
    case 'PaymentFailed':
      if (state.status === 'settled') return state;
      return { ...(state.status === 'dunning' ? state : scheduleStartedBy(input)), failures: (state.status === 'dunning' ? state.failures : 0) + 1 };
    case 'InvoiceSettled':
      return { status: 'settled' };
    case TIMER_FIRED:
    case COMMAND_REJECTED:
      return state;
    default:
      return assertNever(input);
  }
}

/** The schedule a first failure starts, before it is counted. */
function scheduleStartedBy({ data }: PaymentFailed): { status: 'dunning' } & Schedule {
  return { status: 'dunning', invoiceId: data.invoice_id, subscriptionId: data.subscription_id, terms: data.dunning, firstFailureAt: data.occurred_at, failures: 0, timers: [] };
}

function withTimer(state: DunningState, timer: DunningTimer | undefined): DunningState {
  return state.status === 'dunning' && timer ? { ...state, timers: [...state.timers, timer] } : state;
}

/** After the schedule's `failures` retries, one more failure: the next retry, the wait for the schedule's end, or the final action. */
function afterFailure(schedule: Schedule, error: PaymentError): Output[] {
  const { terms, firstFailureAt, failures } = schedule;
  if (failures >= terms.retry_days.length) return finalAction(schedule);
  if (!error.is_retriable) return schedule.timers.some((timer) => timer.kind === 'exhausted') ? [] : [scheduled({ kind: 'exhausted' }, scheduleEndAt(terms, firstFailureAt))];
  return [scheduled({ kind: 'retry', attempt: failures + 1 }, retryDueAt(terms, firstFailureAt, failures, error))];
}

function onTimer(schedule: Schedule, timer: DunningTimer): Output[] {
  switch (timer.kind) {
    case 'retry':
      return [{ kind: 'command', command: { type: 'RetryInvoicePayment', data: { invoice_id: schedule.invoiceId, attempt: timer.attempt } } }];
    case 'exhausted':
      return finalAction(schedule);
  }
}

const scheduled = (timer: DunningTimer, dueAt: string): Output => ({ kind: 'schedule', timerId: DunningTimers.idOf(timer), dueAt });

function finalAction({ terms, invoiceId, subscriptionId }: Schedule): Output[] {
  const action = terms.final_action;
  if (action === 'leave_past_due') return [];
  return [{ kind: 'command', command: { type: 'ApplyDunningFinalAction', data: { invoice_id: invoiceId, subscription_id: subscriptionId, action } } }];
}
