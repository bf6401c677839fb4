import { COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessMessage, type ProcessOutput, type TimerFired } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { dunningDecider, type DunningCommand, type DunningInput } from './dunning.decider';
import type { DunningTerms } from './dunning';
import { DunningTimers } from './dunning-timer';

const spec = ProcessSpecification.for(dunningDecider);
const invoice_id = 'inv_01JINVOICE000000000000000';
const subscription_id = 'sub_01JSUBSCRIPTION00000000000';
const T0 = '2026-03-02T09:00:00.000Z';
const day = (n: number) => new Date(Date.parse(T0) + n * 86_400_000).toISOString();
const terms: DunningTerms = { retry_days: [1, 3], final_action: 'cancel_subscription', use_provider_hints: false };
const error = (is_retriable: boolean, retriable_after: string | null = null) => ({
  code: 'card_declined',
  decline_code: 'insufficient_funds',
  provider_message: 'no',
  user_message: 'no',
  is_retriable,
  retriable_after,
});
let ids = 0;
const failed = (at: string, retriable = true, hint: string | null = null, dunning = terms): DunningInput => ({
  id: `evt_${++ids}`,
  type: 'PaymentFailed',
  data: { invoice_id, subscription_id, dunning, last_error: error(retriable, hint), occurred_at: at },
});
const fired = (timer_id: string) => ({ id: `timer:${timer_id}`, type: TIMER_FIRED, data: { timer_id } }) as const;
const cancel = { kind: 'command', command: { type: 'ApplyDunningFinalAction', data: { invoice_id, subscription_id, action: 'cancel_subscription' } } } as const;

describe('dunning process', () => {
  it('schedules the first retry on the first fixed day, never before the provider’s hint', () => {
    spec.given([]).when(failed(T0)).then([{ kind: 'schedule', timerId: 'retry:1', dueAt: day(1) }]);
    spec.given([]).when(failed(T0, true, day(2))).then([{ kind: 'schedule', timerId: 'retry:1', dueAt: day(2) }]);
  });

  it('takes the provider’s hint in place of the fixed day when the terms say so', () =>
    spec.given([]).when(failed(T0, true, day(0.25), { ...terms, use_provider_hints: true })).then([{ kind: 'schedule', timerId: 'retry:1', dueAt: day(0.25) }]));

  it('retries when its timer fires', () =>
    spec.given([failed(T0)]).when(fired('retry:1')).then([{ kind: 'command', command: { type: 'RetryInvoicePayment', data: { invoice_id, attempt: 1 } } }]));

  it('counts days from the first failure, and applies the final action once the retries are used up', () => {
    spec.given([failed(T0)]).when(failed(day(1))).then([{ kind: 'schedule', timerId: 'retry:2', dueAt: day(3) }]);
    spec.given([failed(T0), failed(day(1))]).when(failed(day(3))).then([cancel]);
  });

  it('never retries a failure the provider calls final; the final action waits for the schedule’s end', () => {
    spec.given([]).when(failed(T0, false)).then([{ kind: 'schedule', timerId: 'exhausted', dueAt: day(3) }]);
    spec.given([failed(T0, false)]).when(fired('exhausted')).then([cancel]);
  });

  it('does nothing more for a leave_past_due policy', () => {
    const lenient = { ...terms, retry_days: [], final_action: 'leave_past_due' as const };
    spec.given([]).when(failed(T0, true, null, lenient)).thenNothingHappens();
  });

  it('cancels its timers and ends once the invoice is settled', () => {
    const settled = { id: 'evt_paid', type: 'InvoiceSettled' as const, data: { invoice_id } };
    spec.given([failed(T0)]).when(settled).then([{ kind: 'cancel', timerId: 'retry:1' }]);
    spec.given([failed(T0), settled]).when(fired('retry:1')).thenNothingHappens();
    spec.given([failed(T0), settled]).when(failed(day(1))).thenNothingHappens();
  });

  it('applies a mark_uncollectible policy once the retries are used up', () => {
    const strict = { ...terms, retry_days: [1], final_action: 'mark_uncollectible' as const };
    const writeOff = { kind: 'command', command: { type: 'ApplyDunningFinalAction', data: { invoice_id, subscription_id, action: 'mark_uncollectible' } } } as const;
    spec.given([failed(T0, true, null, strict)]).when(failed(day(1), true, null, strict)).then([writeOff]);
  });

  it('keeps the terms of the first failure for the whole schedule', () =>
    spec.given([failed(T0)]).when(failed(day(1), true, null, { ...terms, retry_days: [1] })).then([{ kind: 'schedule', timerId: 'retry:2', dueAt: day(3) }]));

  it('waits for the schedule’s end once, however many final failures arrive', () =>
    spec.given([failed(T0, false)]).when(failed(day(0.5), false)).thenNothingHappens());

  it('ignores a timer that is none of its own, a refusal, and anything before its first failure', () => {
    spec.given([failed(T0)]).when(fired('period_end:2026-04-01T00:00:00.000Z')).thenNothingHappens();
    spec.given([failed(T0)]).when(fired('retry:0')).thenNothingHappens();
    const refused = { id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'RetryInvoicePayment', code: 'invoice.not_payable', message: 'no' } } as const;
    spec.given([failed(T0)]).when(refused).thenNothingHappens();
    spec.given([]).when(fired('retry:1')).thenNothingHappens();
  });

  it('ends for good once settled: a settlement before any failure, or a second one, does nothing', () => {
    const settled = { id: 'evt_void', type: 'InvoiceSettled' as const, data: { invoice_id } };
    spec.given([settled]).when(failed(T0)).thenNothingHappens();
    spec.given([failed(T0), settled]).when({ ...settled, id: 'evt_paid_later' }).thenNothingHappens();
  });

  it('folds a stream stored before its state was a union as it did then', () => {
    const stored: ProcessMessage<DunningInput | TimerFired | CommandRejected, ProcessOutput<DunningCommand>>[] = [
      { kind: 'input', input: failed(T0) },
      { kind: 'schedule', timerId: 'retry:1', dueAt: day(1) },
      { kind: 'input', input: fired('retry:1') },
      { kind: 'command', command: { type: 'RetryInvoicePayment', data: { invoice_id, attempt: 1 } } },
      { kind: 'input', input: failed(day(1), false) },
      { kind: 'schedule', timerId: 'exhausted', dueAt: day(3) },
    ];
    const state = stored.reduce(dunningDecider.evolve, dunningDecider.initialState());
    expect(dunningDecider.decide({ id: 'evt_paid', type: 'InvoiceSettled', data: { invoice_id } }, state)).toEqual([
      { kind: 'cancel', timerId: 'retry:1' },
      { kind: 'cancel', timerId: 'exhausted' },
    ]);
    expect(dunningDecider.decide(fired('exhausted'), state)).toEqual([cancel]);
  });
});

describe('dunning timers', () => {
  it('name each timer as the process streams store it, and read each name back', () => {
    expect(DunningTimers.idOf({ kind: 'retry', attempt: 3 })).toBe('retry:3');
    expect(DunningTimers.idOf({ kind: 'exhausted' })).toBe('exhausted');
    for (const timer of [{ kind: 'retry', attempt: 1 }, { kind: 'retry', attempt: 12 }, { kind: 'exhausted' }] as const) expect(DunningTimers.of(DunningTimers.idOf(timer))).toEqual(timer);
  });

  it('read no timer from a name none has', () => {
    for (const name of ['retry:', 'retry:0', 'retry:01', 'retry:1.5', 'retry:x', 'exhausted:1', 'period_end:2026-04-01T00:00:00.000Z']) expect(DunningTimers.of(name)).toBeUndefined();
  });
});
