import type { Event } from '@tally/kernel';

/** The spec's refund reasons. */
export type RefundReason = 'duplicate' | 'fraudulent' | 'customer_request' | 'order_change' | 'service_outage' | 'product_unsatisfactory' | 'other';
export const REFUND_REASONS: readonly RefundReason[] = ['duplicate', 'fraudulent', 'customer_request', 'order_change', 'service_outage', 'product_unsatisfactory', 'other'];

/** Where the money goes: back to the method it was paid with, or to the customer's wallet in the payment's currency. */
export type RefundDestination = 'original_method' | 'wallet';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/**
 * How a provider's refusal reads: `declined` said no (nothing was refunded), `ambiguous` may have
 * refunded or not (an outage, a timeout), so its retry asks again under the same idempotency key.
 */
export type RefundFailureKind = 'declined' | 'ambiguous';

export interface RefundFailure {
  kind: RefundFailureKind;
  code: string;
  message: string;
}

/** Reserved on its payment first; created with the credit note it issues against the payment's invoice. */
export type RefundCreated = Event<
  'RefundCreated',
  {
    refund_id: string;
    payment_id: string;
    invoice_id: string;
    customer_id: string;
    credit_note_id: string;
    amount: string;
    currency: string;
    reason: RefundReason;
    destination: RefundDestination;
    /** The provider the payment was made through (`wallet`: Tally's wallet). */
    provider: string;
    /** On the refund's clock: the retries are scheduled from it. */
    created_at: string;
    /** The idempotency key of the first attempt. */
    idempotency_key: string;
  }
>;

/** An attempt failed; `next_attempt_at` null: that was the last one. `next_idempotency_key`: what the next attempt asks under. */
export type RefundAttemptFailed = Event<
  'RefundAttemptFailed',
  { refund_id: string; attempt: number; failure: RefundFailure; failed_at: string; next_attempt_at: string | null; next_idempotency_key: string | null }
>;

/** The money was returned: by the provider (`provider_refund_id`) or to the wallet (`wallet_transaction_id`). */
export type RefundSucceeded = Event<
  'RefundSucceeded',
  { refund_id: string; attempt: number; provider_refund_id: string | null; wallet_transaction_id: string | null; succeeded_at: string }
>;

/**
 * The provider reported a refund it had answered as made failed after all (the bank returned it):
 * the money is owed again, the refund is pending with its next attempt (a new key), or failed
 * (`next_attempt_at` null) when that was the last.
 */
export type RefundReversed = Event<
  'RefundReversed',
  { refund_id: string; attempt: number; failure: RefundFailure; reversed_at: string; next_attempt_at: string | null; next_idempotency_key: string | null }
>;

/** Every attempt failed: the refund is failed and its credit note left for an operator (`pending_manual`). */
export type RefundFailed = Event<'RefundFailed', { refund_id: string; attempts: number; failure: RefundFailure; failed_at: string }>;

export type RefundEvent = RefundCreated | RefundAttemptFailed | RefundSucceeded | RefundReversed | RefundFailed;
