import { defineView, type StampedResource } from '@tally/runtime';
import type { RefundDestination, RefundEvent, RefundFailure, RefundReason, RefundStatus } from './domain/refund.events';

export interface RefundResource extends StampedResource {
  object: 'refund';
  payment_id: string;
  invoice_id: string;
  customer_id: string;
  /** The credit note it issued against the payment's invoice. */
  credit_note_id: string;
  amount: string;
  currency: string;
  reason: RefundReason;
  destination: RefundDestination;
  status: RefundStatus;
  /** The provider's refund, once it returned the money to the original method. */
  provider_refund_id: string | null;
  /** The wallet's transaction, once the money went to the wallet. */
  wallet_transaction_id: string | null;
  /** The last failed attempt's reason. */
  failure_reason: RefundFailure | null;
  attempts: number;
  /** When the next attempt is due, while one is. */
  next_attempt_at: string | null;
  metadata: Record<string, string>;
}

/** The refund as the API shows it. */
export const refundView = defineView<RefundResource, RefundEvent, 'RefundCreated'>({
  object: 'refund',
  created: {
    type: 'RefundCreated',
    fields: ({ payment_id, invoice_id, customer_id, credit_note_id, amount, currency, reason, destination }) => ({
      payment_id,
      invoice_id,
      customer_id,
      credit_note_id,
      amount,
      currency,
      reason,
      destination,
      status: 'pending',
      provider_refund_id: null,
      wallet_transaction_id: null,
      failure_reason: null,
      attempts: 0,
      next_attempt_at: null,
      metadata: {},
    }),
  },
  changes: {
    RefundAttemptFailed: (_refund, { attempt, failure, next_attempt_at }) => ({ attempts: attempt, failure_reason: failure, next_attempt_at }),
    RefundSucceeded: (_refund, { attempt, provider_refund_id, wallet_transaction_id }) => ({ status: 'succeeded', attempts: attempt, provider_refund_id, wallet_transaction_id, next_attempt_at: null }),
    RefundReversed: (_refund, { failure, next_attempt_at }) => ({ status: next_attempt_at === null ? 'failed' : 'pending', provider_refund_id: null, failure_reason: failure, next_attempt_at }),
    RefundFailed: (_refund, { failure }) => ({ status: 'failed', failure_reason: failure, next_attempt_at: null }),
  },
  publicTypes: {
    RefundCreated: 'refund.created',
    RefundSucceeded: 'refund.succeeded',
    // `refund.failed`: the provider rejected it for good (every attempt); a failed attempt that is retried is no public event.
    RefundAttemptFailed: undefined,
    RefundFailed: 'refund.failed',
    // The provider rejected it after all: retried, or failed for good when that was the last attempt.
    RefundReversed: 'refund.failed',
  },
});
