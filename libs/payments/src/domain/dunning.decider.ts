import type { CommandRejected, ProcessDecider, ProcessInput, ProcessOutput, TimerFired } from '@tally/kernel';
import { retryDueAt, scheduleEndAt, type DunningFinalAction, type DunningTerms } from './dunning';
import type { PaymentError } from './payment.events';

export type DunningInput =
  | ProcessInput<'PaymentFailed', { invoice_id: string; subscription_id: string; dunning: DunningTerms; last_error: PaymentError; occurred_at: string }>
  /** Paid, voided or written off: nothing is left to collect. */
  | ProcessInput<'InvoiceSettled', { invoice_id: string }>;

export type DunningCommand =
  | { type: 'RetryInvoicePayment'; data: { invoice_id: string; attempt: number } }
  | { type: 'ApplyDunningFinalAction'; data: { invoice_id: string; subscription_id: string; action: Exclude<DunningFinalAction, 'leave_past_due'> } };

export interface DunningState {
  invoiceId: string | null;
  subscriptionId: string | null;
  terms: DunningTerms | null;
  firstFailureAt: string | null;
  failures: number;
  ended: boolean;
  timers: string[];
}

const EXHAUSTED = 'exhausted';
const retryTimer = (attempt: number) => `retry:${attempt}`;

/**
 * One process per subscription invoice whose payment failed: it retries on the schedule of the
 * terms the invoice's first payment carried (only what the provider says is retriable, never
 * before its `retriable_after`), applies the final action once the retries are used up, and stops
 * when the invoice is settled. Its timers are on the invoice's clock, so test clocks drive it.
 */
export const dunningDecider: ProcessDecider<DunningState, DunningInput | TimerFired | CommandRejected, ProcessOutput<DunningCommand>> = {
  initialState: () => ({ invoiceId: null, subscriptionId: null, terms: null, firstFailureAt: null, failures: 0, ended: false, timers: [] }),

  evolve(state, message) {
    if (message.kind === 'schedule') return { ...state, timers: [...state.timers, message.timerId] };
    if (message.kind !== 'input') return state;
    const { input } = message;
    switch (input.type) {
      case 'PaymentFailed': {
        const { invoice_id, subscription_id, dunning, occurred_at } = input.data;
        // The terms of the first failure hold for the whole schedule.
        const started = state.terms ? state : { ...state, invoiceId: invoice_id, subscriptionId: subscription_id, terms: dunning, firstFailureAt: occurred_at };
        return { ...started, failures: state.failures + 1 };
      }
      case 'InvoiceSettled':
        return { ...state, ended: true };
      default:
        return state;
    }
  },

  decide(input, state) {
    switch (input.type) {
      case 'PaymentFailed': {
        if (state.ended) return [];
        const { last_error, occurred_at } = input.data;
        const terms = state.terms ?? input.data.dunning;
        const started = { ...state, terms, invoiceId: state.invoiceId ?? input.data.invoice_id, subscriptionId: state.subscriptionId ?? input.data.subscription_id };
        const first = state.firstFailureAt ?? occurred_at;
        const retriesMade = state.failures;
        if (retriesMade >= terms.retry_days.length) return finalAction(started);
        if (!last_error.is_retriable) return state.timers.includes(EXHAUSTED) ? [] : [{ kind: 'schedule', timerId: EXHAUSTED, dueAt: scheduleEndAt(terms, first) }];
        return [{ kind: 'schedule', timerId: retryTimer(retriesMade + 1), dueAt: retryDueAt(terms, first, retriesMade, last_error) }];
      }
      case 'TimerFired': {
        if (state.ended || !state.invoiceId) return [];
        if (input.data.timer_id === EXHAUSTED) return finalAction(state);
        const attempt = Number(input.data.timer_id.slice('retry:'.length));
        if (!input.data.timer_id.startsWith('retry:') || !Number.isInteger(attempt)) return [];
        return [{ kind: 'command', command: { type: 'RetryInvoicePayment', data: { invoice_id: state.invoiceId, attempt } } }];
      }
      case 'InvoiceSettled':
        return state.timers.map((timerId) => ({ kind: 'cancel' as const, timerId }));
      default:
        return [];
    }
  },
};

function finalAction(state: DunningState): ProcessOutput<DunningCommand>[] {
  const action = state.terms?.final_action;
  if (!action || action === 'leave_past_due' || !state.invoiceId || !state.subscriptionId) return [];
  return [{ kind: 'command', command: { type: 'ApplyDunningFinalAction', data: { invoice_id: state.invoiceId, subscription_id: state.subscriptionId, action } } }];
}
