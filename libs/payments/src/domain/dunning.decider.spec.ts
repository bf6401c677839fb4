import { TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { dunningDecider, type DunningInput } from './dunning.decider';
import type { DunningTerms } from './dunning';

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
});
