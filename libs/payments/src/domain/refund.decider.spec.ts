import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { refundDecider, type RecordRefundAttempt, type RefundAttemptOutcome } from './refund.decider';
import type { RefundEvent, RefundFailure } from './refund.events';

const spec = DeciderSpecification.for(refundDecider);
const refund_id = 'rfd_01JREFUND0000000000000000';
const T0 = '2026-05-01T10:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * 3_600_000).toISOString();

const created: RefundEvent = {
  type: 'RefundCreated',
  data: {
    refund_id,
    payment_id: 'pay_1',
    invoice_id: 'inv_1',
    customer_id: 'cus_1',
    credit_note_id: 'cn_01JREFUND0000000000000000',
    amount: '20.00',
    currency: 'EUR',
    reason: 'customer_request',
    destination: 'original_method',
    provider: 'sandbox',
    created_at: T0,
    idempotency_key: `refund:${refund_id}:1`,
  },
};
const declined: RefundFailure = { kind: 'declined', code: 'refund_declined', message: 'no' };
const outage: RefundFailure = { kind: 'ambiguous', code: 'provider_unavailable', message: 'down' };
const record = (attempt: number, outcome: RefundAttemptOutcome): RecordRefundAttempt => ({ type: 'RecordRefundAttempt', data: { refund_id, attempt, outcome } });
const failedAt = (failure: RefundFailure, hours: number): RefundAttemptOutcome => ({ status: 'failed', failure, at: at(hours) });
const attemptFailed = (attempt: number, failure: RefundFailure, hours: number, next: number | null, key: string | null): RefundEvent => ({
  type: 'RefundAttemptFailed',
  data: { refund_id, attempt, failure, failed_at: at(hours), next_attempt_at: next === null ? null : at(next), next_idempotency_key: key },
});
const succeeded = (attempt: number, hours: number): RefundEvent => ({
  type: 'RefundSucceeded',
  data: { refund_id, attempt, provider_refund_id: 'sbx_re_1', wallet_transaction_id: null, succeeded_at: at(hours) },
});
const success = (hours: number): RefundAttemptOutcome => ({ status: 'succeeded', provider_refund_id: 'sbx_re_1', wallet_transaction_id: null, at: at(hours) });

describe('refund decider', () => {
  it('is created once', () => {
    spec.given([]).when({ type: 'CreateRefund', data: created.data }).then([created]);
    spec.given([created]).when({ type: 'CreateRefund', data: created.data }).thenNothingHappens();
  });

  it('is created failed, in one append, when its payment refused it (never attempted)', () => {
    const refused = { kind: 'declined' as const, code: 'refund.window_closed', message: 'closed' };
    spec
      .given([])
      .when({ type: 'CreateRefund', data: { ...created.data, refused } })
      .then([created, { type: 'RefundFailed', data: { refund_id, attempts: 0, failure: refused, failed_at: T0 } }]);
    spec.given([created, { type: 'RefundFailed', data: { refund_id, attempts: 0, failure: refused, failed_at: T0 } }]).when(record(1, success(0))).thenNothingHappens();
  });

  it('records a first attempt’s success', () => spec.given([created]).when(record(1, success(0))).then([succeeded(1, 0)]));

  it('retries a declined attempt at +1 h under a new key, an ambiguous one under the same', () => {
    spec.given([created]).when(record(1, failedAt(declined, 0))).then([attemptFailed(1, declined, 0, 1, `refund:${refund_id}:2`)]);
    spec.given([created]).when(record(1, failedAt(outage, 0))).then([attemptFailed(1, outage, 0, 1, `refund:${refund_id}:1`)]);
  });

  it('keeps the key of the first ambiguous attempt through later ambiguous ones', () =>
    spec
      .given([created, attemptFailed(1, declined, 0, 1, `refund:${refund_id}:2`)])
      .when(record(2, failedAt(outage, 1)))
      .then([attemptFailed(2, outage, 1, 3, `refund:${refund_id}:2`)]));

  it('schedules 5 attempts over 24 hours, then fails the refund', () => {
    const history = [
      created,
      attemptFailed(1, outage, 0, 1, `refund:${refund_id}:1`),
      attemptFailed(2, outage, 1, 3, `refund:${refund_id}:1`),
      attemptFailed(3, outage, 3, 9, `refund:${refund_id}:1`),
    ];
    spec.given(history).when(record(4, failedAt(outage, 9))).then([attemptFailed(4, outage, 9, 24, `refund:${refund_id}:1`)]);
    spec
      .given([...history, attemptFailed(4, outage, 9, 24, `refund:${refund_id}:1`)])
      .when(record(5, failedAt(outage, 24)))
      .then([attemptFailed(5, outage, 24, null, null), { type: 'RefundFailed', data: { refund_id, attempts: 5, failure: outage, failed_at: at(24) } }]);
  });

  it('records each attempt once and in order: a repeated or early outcome, or one after the refund ended, changes nothing', () => {
    spec.given([created, succeeded(1, 0)]).when(record(1, success(0))).thenNothingHappens();
    spec.given([created, succeeded(1, 0)]).when(record(2, failedAt(outage, 1))).thenNothingHappens();
    spec.given([created]).when(record(2, success(1))).thenNothingHappens();
    spec.given([created, attemptFailed(1, outage, 0, 1, `refund:${refund_id}:1`)]).when(record(1, success(0))).thenNothingHappens();
  });

  it('is pending again when the provider reports the refund it made failed, its next attempt under a new key; failed when that was the last', () => {
    const reversal = (provider_refund_id: string, hours: number) => ({ type: 'RecordRefundReversal' as const, data: { refund_id, provider_refund_id, failure: declined, at: at(hours) } });
    const reversed = (attempt: number, hours: number, next: number | null): RefundEvent => ({
      type: 'RefundReversed',
      data: { refund_id, attempt, failure: declined, reversed_at: at(hours), next_attempt_at: next === null ? null : at(next), next_idempotency_key: next === null ? null : `refund:${refund_id}:${attempt + 1}` },
    });
    spec.given([created, succeeded(1, 0)]).when(reversal('sbx_re_1', 0.5)).then([reversed(1, 0.5, 1)]);
    spec.given([created, succeeded(1, 0)]).when(reversal('sbx_re_1', 2)).then([reversed(1, 2, 2)]);
    spec.given([created, succeeded(1, 0), reversed(1, 0.5, 1)]).when(reversal('sbx_re_1', 0.6)).thenNothingHappens();
    spec.given([created, succeeded(1, 0)]).when(reversal('sbx_re_other', 0.5)).thenNothingHappens();
    spec.given([created, succeeded(1, 0), reversed(1, 0.5, 1)]).when(record(2, success(1))).then([succeeded(2, 1)]);
    const five = [
      created,
      attemptFailed(1, outage, 0, 1, `refund:${refund_id}:1`),
      attemptFailed(2, outage, 1, 3, `refund:${refund_id}:1`),
      attemptFailed(3, outage, 3, 9, `refund:${refund_id}:1`),
      attemptFailed(4, outage, 9, 24, `refund:${refund_id}:1`),
      succeeded(5, 24),
    ];
    spec.given(five).when(reversal('sbx_re_1', 30)).then([reversed(5, 30, null)]);
  });

  it('does not exist before it is created', () => spec.given([]).when(record(1, success(0))).thenFails('refund.not_found'));
});
