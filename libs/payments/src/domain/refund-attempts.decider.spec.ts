import { TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { refundAttemptsDecider } from './refund-attempts.decider';

const spec = ProcessSpecification.for(refundAttemptsDecider);
const refund_id = 'rfd_01JREFUND0000000000000000';
const reservation = { payment_id: 'pay_1', refund_id, amount: '20.00', refunded: '20', reason: 'duplicate' as const, destination: 'original_method' as const, reserved_at: '2026-05-01T10:00:00.000Z' };
const input = <T extends string, D>(n: number, type: T, data: D) => ({ id: `01JEVENT00000000000000000${n}`, type, data });

describe('refund attempts process', () => {
  it('opens the refund from its reservation, then makes its first attempt', () => {
    spec.given([]).when(input(1, 'PaymentRefundReserved', reservation)).then([{ kind: 'command', command: { type: 'OpenRefund', data: reservation } }]);
    spec.given([]).when(input(2, 'RefundCreated', { refund_id })).then([{ kind: 'command', command: { type: 'AttemptRefund', data: { refund_id, attempt: 1 } } }]);
  });

  it('sets the next attempt’s timer after a failure and tells the credit note; the timer makes the attempt', () => {
    spec
      .given([])
      .when(input(3, 'RefundAttemptFailed', { refund_id, attempt: 2, next_attempt_at: '2026-05-01T13:00:00.000Z' }))
      .then([
        { kind: 'schedule', timerId: `attempt:3:${refund_id}`, dueAt: '2026-05-01T13:00:00.000Z' },
        { kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: false } } },
      ]);
    spec.given([]).when(input(4, TIMER_FIRED, { timer_id: `attempt:3:${refund_id}` })).then([{ kind: 'command', command: { type: 'AttemptRefund', data: { refund_id, attempt: 3 } } }]);
  });

  it('leaves the last failure to the refund’s end, which the credit note hears as pending_manual', () => {
    spec.given([]).when(input(5, 'RefundAttemptFailed', { refund_id, attempt: 5, next_attempt_at: null })).thenNothingHappens();
    spec
      .given([])
      .when(input(6, 'RefundSettled', { refund_id, refund_status: 'failed' as const, exhausted: true }))
      .then([{ kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: true } } }]);
  });

  it('retries a refund the provider reported failed after it succeeded, or leaves its note pending_manual after the last attempt', () => {
    spec
      .given([])
      .when(input(8, 'RefundReversed', { refund_id, attempt: 1, next_attempt_at: '2026-05-01T11:00:00.000Z' }))
      .then([
        { kind: 'schedule', timerId: `attempt:2:${refund_id}`, dueAt: '2026-05-01T11:00:00.000Z' },
        { kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: false } } },
      ]);
    spec
      .given([])
      .when(input(9, 'RefundReversed', { refund_id, attempt: 5, next_attempt_at: null }))
      .then([{ kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: true } } }]);
  });

  it('ignores a timer not its own', () => spec.given([]).when(input(7, TIMER_FIRED, { timer_id: 'retry:2' })).thenNothingHappens());
});
