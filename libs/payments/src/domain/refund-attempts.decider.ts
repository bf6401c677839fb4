import { assertNever, COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessOutput, type TimerFired } from '@tally/kernel';
import type { PaymentRefundReserved } from './payment.events';

export type RefundAttemptsInput =
  /** A refund was reserved on its payment: the refund and its credit note are made from it. */
  | ProcessInput<'PaymentRefundReserved', PaymentRefundReserved['data']>
  | ProcessInput<'RefundCreated', { refund_id: string }>
  | ProcessInput<'RefundAttemptFailed', { refund_id: string; attempt: number; next_attempt_at: string | null }>
  /** The provider reported the refund it made failed after all. */
  | ProcessInput<'RefundReversed', { refund_id: string; attempt: number; next_attempt_at: string | null }>
  /** The refund's outcome so far, for its credit note. */
  | ProcessInput<'RefundSettled', { refund_id: string; refund_status: 'succeeded' | 'failed'; exhausted: boolean }>;

export type RefundAttemptsCommand =
  | { type: 'OpenRefund'; data: PaymentRefundReserved['data'] }
  | { type: 'AttemptRefund'; data: { refund_id: string; attempt: number } }
  | { type: 'RecordRefundOnCreditNote'; data: { refund_id: string; refund_status: 'succeeded' | 'failed'; exhausted: boolean } };

type Output = ProcessOutput<RefundAttemptsCommand>;

/** `attempt:<n>:<refund id>`: attempt n is due. */
const ATTEMPT_TIMER = 'attempt:';

/**
 * One process per refund: it opens the refund from its reservation, makes its first attempt, and
 * each retry when its timer (on the refund's clock) is due; each attempt's outcome reaches the
 * credit note. Every command is idempotent, so one a request already carried out changes nothing.
 */
export const refundAttemptsDecider: ProcessDecider<Record<string, never>, RefundAttemptsInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({}),
  evolve: (state) => state,

  decide(input) {
    switch (input.type) {
      case 'PaymentRefundReserved':
        return [{ kind: 'command', command: { type: 'OpenRefund', data: input.data } }];
      case 'RefundCreated':
        return [attempt(input.data.refund_id, 1)];
      case 'RefundAttemptFailed': {
        // The last failed attempt's refund fails (RefundSettled, exhausted) in the same append.
        const { refund_id, attempt: failed, next_attempt_at } = input.data;
        if (next_attempt_at === null) return [];
        return [
          { kind: 'schedule', timerId: `${ATTEMPT_TIMER}${failed + 1}:${refund_id}`, dueAt: next_attempt_at },
          { kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: false } } },
        ];
      }
      case 'RefundReversed': {
        const { refund_id, attempt: failed, next_attempt_at } = input.data;
        const onNote: Output = { kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: { refund_id, refund_status: 'failed', exhausted: next_attempt_at === null } } };
        return next_attempt_at === null ? [onNote] : [{ kind: 'schedule', timerId: `${ATTEMPT_TIMER}${failed + 1}:${refund_id}`, dueAt: next_attempt_at }, onNote];
      }
      case 'RefundSettled':
        return [{ kind: 'command', command: { type: 'RecordRefundOnCreditNote', data: input.data } }];
      case TIMER_FIRED: {
        const [kind, n, refundId] = input.data.timer_id.split(':');
        return `${kind}:` === ATTEMPT_TIMER && refundId ? [attempt(refundId, Number(n))] : [];
      }
      case COMMAND_REJECTED:
        return [];
      default:
        return assertNever(input);
    }
  },
};

const attempt = (refund_id: string, n: number): Output => ({ kind: 'command', command: { type: 'AttemptRefund', data: { refund_id, attempt: n } } });
