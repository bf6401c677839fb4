import { assertNever, DomainError, type Command, type Decider } from '@tally/kernel';
import { MAX_REFUND_ATTEMPTS, refundAttemptDueAt, refundAttemptKey } from './refund-retries';
import type { RefundCreated, RefundDestination, RefundEvent, RefundFailure, RefundStatus } from './refund.events';

export type RefundState =
  | { status: 'none' }
  | {
      status: RefundStatus;
      id: string;
      paymentId: string;
      invoiceId: string;
      customerId: string;
      creditNoteId: string;
      amount: string;
      currency: string;
      destination: RefundDestination;
      createdAt: string;
      /** Attempts made so far. */
      attempts: number;
      /** What the next attempt asks the provider under. */
      idempotencyKey: string;
      /** The provider's refund, while it stands as made. */
      providerRefundId: string | null;
    };

/** What an attempt came to: the money returned, or the provider's refusal. `at`: on the refund's clock. */
export type RefundAttemptOutcome =
  | { status: 'succeeded'; provider_refund_id: string | null; wallet_transaction_id: string | null; at: string }
  | { status: 'failed'; failure: RefundFailure; at: string };

/** `refused`: the payment could not give it (a credit note's refund whose reservation was refused): created failed, never attempted. */
export type CreateRefund = Command<'CreateRefund', RefundCreated['data'] & { refused?: RefundFailure }>;
/** `attempt`: the attempt's number (1-based); an outcome of an attempt already recorded changes nothing. */
export type RecordRefundAttempt = Command<'RecordRefundAttempt', { refund_id: string; attempt: number; outcome: RefundAttemptOutcome }>;

/** The provider reports the refund it made failed after all; `at` on the refund's clock. */
export type RecordRefundReversal = Command<'RecordRefundReversal', { refund_id: string; provider_refund_id: string; failure: RefundFailure; at: string }>;

export type RefundCommand = CreateRefund | RecordRefundAttempt | RecordRefundReversal;

/**
 * When the attempt after `attempt` is due: on the schedule, but never before `at` (a late failure
 * reported after that attempt's time is retried at once); null after the last.
 */
function nextAttemptAt(createdAt: string, attempt: number, at: string): string | null {
  if (attempt >= MAX_REFUND_ATTEMPTS) return null;
  const due = refundAttemptDueAt(createdAt, attempt + 1)!;
  return due > at ? due : at;
}

export const refundNotFound = (id: string) => DomainError.notFound('refund.not_found', `No refund ${id}`);

/**
 * A refund's attempts: each outcome is recorded once, in order; a failure schedules the next
 * attempt (5 over about 24 hours), and the fifth failure fails the refund. A declined attempt's
 * retry asks under a new key, an ambiguous one's under the same (the provider may have refunded).
 */
export const refundDecider: Decider<RefundState, RefundCommand, RefundEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateRefund': {
        if (state.status !== 'none') return [];
        const { refused, ...data } = command.data;
        const created: RefundEvent = { type: 'RefundCreated', data };
        return refused ? [created, { type: 'RefundFailed', data: { refund_id: data.refund_id, attempts: 0, failure: refused, failed_at: data.created_at } }] : [created];
      }
      case 'RecordRefundAttempt': {
        if (state.status === 'none') throw refundNotFound(command.data.refund_id);
        const { attempt, outcome } = command.data;
        if (state.status !== 'pending' || attempt !== state.attempts + 1) return [];
        const refund_id = state.id;
        if (outcome.status === 'succeeded') {
          const { provider_refund_id, wallet_transaction_id, at } = outcome;
          return [{ type: 'RefundSucceeded', data: { refund_id, attempt, provider_refund_id, wallet_transaction_id, succeeded_at: at } }];
        }
        const { failure, at } = outcome;
        const next = nextAttemptAt(state.createdAt, attempt, at);
        const nextKey = next === null ? null : failure.kind === 'ambiguous' ? state.idempotencyKey : refundAttemptKey(refund_id, attempt + 1);
        const failed: RefundEvent = { type: 'RefundAttemptFailed', data: { refund_id, attempt, failure, failed_at: at, next_attempt_at: next, next_idempotency_key: nextKey } };
        return next === null ? [failed, { type: 'RefundFailed', data: { refund_id, attempts: attempt, failure, failed_at: at } }] : [failed];
      }
      case 'RecordRefundReversal': {
        if (state.status === 'none') throw refundNotFound(command.data.refund_id);
        const { provider_refund_id, failure, at } = command.data;
        // Only the refund made, and once: a later notice of it changes nothing.
        if (state.status !== 'succeeded' || state.providerRefundId !== provider_refund_id) return [];
        const attempt = state.attempts;
        const next = nextAttemptAt(state.createdAt, attempt, at);
        const key = next === null ? null : refundAttemptKey(state.id, attempt + 1);
        return [{ type: 'RefundReversed', data: { refund_id: state.id, attempt, failure, reversed_at: at, next_attempt_at: next, next_idempotency_key: key } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'RefundCreated') {
      const { refund_id, payment_id, invoice_id, customer_id, credit_note_id, amount, currency, destination, created_at, idempotency_key } = event.data;
      return {
        status: 'pending',
        id: refund_id,
        paymentId: payment_id,
        invoiceId: invoice_id,
        customerId: customer_id,
        creditNoteId: credit_note_id,
        amount,
        currency,
        destination,
        createdAt: created_at,
        attempts: 0,
        idempotencyKey: idempotency_key,
        providerRefundId: null,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'RefundAttemptFailed':
        return { ...state, attempts: event.data.attempt, idempotencyKey: event.data.next_idempotency_key ?? state.idempotencyKey };
      case 'RefundSucceeded':
        return { ...state, status: 'succeeded', attempts: event.data.attempt, providerRefundId: event.data.provider_refund_id };
      case 'RefundReversed':
        return { ...state, status: event.data.next_attempt_at === null ? 'failed' : 'pending', providerRefundId: null, idempotencyKey: event.data.next_idempotency_key ?? state.idempotencyKey };
      case 'RefundFailed':
        return { ...state, status: 'failed' };
      default:
        return assertNever(event);
    }
  },
};
