import type { Event, PaymentError } from '@tally/kernel';
import type { DunningTerms } from './dunning';
import type { RefundDestination, RefundReason as RequestedRefundReason } from './refund.events';

export type PaymentStatus = 'pending' | 'processing' | 'requires_action' | 'succeeded' | 'failed' | 'canceled' | 'refunded' | 'partially_refunded' | 'charged_back';

/** The spec's two shapes; a redirect's `url` is Tally's hosted action page for the payment. */
export type PaymentNextAction = { type: 'redirect_to_url'; url: string } | { type: 'use_provider_sdk'; provider: string; payment_intent_client_secret: string };

export type { PaymentError } from '@tally/kernel';

/** Why a payment was attempted: a call of the pay operation, the invoice's automatic charge, or a dunning retry. */
export type PaymentReason = 'manual' | 'automatic' | 'retry';

export type PaymentCreated = Event<
  'PaymentCreated',
  {
    payment_id: string;
    invoice_id: string;
    customer_id: string;
    subscription_id: string | null;
    payment_method_id: string;
    provider: string;
    provider_ref: string;
    amount: string;
    currency: string;
    reason: PaymentReason;
    /** A subscription invoice's retry schedule, should this payment fail (null: not a subscription's invoice, no dunning). */
    dunning: DunningTerms | null;
    /** Where the hosted action page sends the customer back to (null: nowhere; absent from payments created before it existed). */
    return_url?: string | null;
  }
>;

export type PaymentProcessing = Event<'PaymentProcessing', { payment_id: string; provider_id: string }>;

export type PaymentRequiresAction = Event<'PaymentRequiresAction', { payment_id: string; provider_id: string; next_action: PaymentNextAction }>;

export type PaymentActionCompleted = Event<'PaymentActionCompleted', { payment_id: string }>;

export type PaymentSucceeded = Event<'PaymentSucceeded', { payment_id: string; provider_id: string; captured_at: string }>;

/** The money reached the merchant's balance: cards at capture (the sandbox settles at once), bank debits later. */
export type PaymentSettled = Event<'PaymentSettled', { payment_id: string; amount_settled: string; settlement_currency: string; fx_rate: string | null; settled_at: string }>;

/** Names its invoice, and the retry terms the payment was made under, so dunning needs nothing else. */
export type PaymentFailed = Event<
  'PaymentFailed',
  { payment_id: string; provider_id: string | null; last_error: PaymentError; invoice_id: string; subscription_id: string | null; dunning: DunningTerms | null }
>;

export type PaymentCanceled = Event<'PaymentCanceled', { payment_id: string }>;

/** The customer's bank took the money back (a dispute opened): the payment is charged back until the dispute is decided. */
export type PaymentChargedBack = Event<'PaymentChargedBack', { payment_id: string; amount: string; reason: string; opened_at: string }>;

/** The dispute was decided for the merchant (the money returns: the payment is succeeded again) or for the customer. */
export type PaymentDisputeWon = Event<'PaymentDisputeWon', { payment_id: string; decided_at: string }>;
export type PaymentDisputeLost = Event<'PaymentDisputeLost', { payment_id: string; decided_at: string }>;

/** Why money was returned: the payment's invoice could not take it (void, written off, paid, or its attempt over). */
export type RefundReason = 'invoice_not_payable';

/** The provider returned the whole payment to the method it came from (`refund_id`: Tally's, `re_…`). */
export type PaymentRefunded = Event<'PaymentRefunded', { payment_id: string; refund_id: string; provider_refund_id: string; amount: string; reason: RefundReason; refunded_at: string }>;

/**
 * A refund of the payment (`rfd_…`) was asked and its amount set aside: the refunds reserved never
 * exceed the payment, so requests racing on one payment cannot refund more than it took between them.
 * `refunded`: all reserved so far, this one included. Carries what the refund is made of, so the
 * refund and its credit note follow from it even when the request that reserved it died.
 */
export type PaymentRefundReserved = Event<
  'PaymentRefundReserved',
  {
    payment_id: string;
    refund_id: string;
    amount: string;
    refunded: string;
    reason: RequestedRefundReason;
    destination: RefundDestination;
    reserved_at: string;
  }
>;

export type PaymentEvent =
  | PaymentCreated
  | PaymentProcessing
  | PaymentRequiresAction
  | PaymentActionCompleted
  | PaymentSucceeded
  | PaymentSettled
  | PaymentFailed
  | PaymentCanceled
  | PaymentChargedBack
  | PaymentDisputeWon
  | PaymentDisputeLost
  | PaymentRefunded
  | PaymentRefundReserved;
