import type { PaymentError } from '@tally/kernel';
import type { BankAccountDetails, CardDetails, PaymentMethodType, WalletDetails } from '../domain/payment-method.events';

/*
 * What Tally needs from a payment provider. A provider's adapter (the sandbox, Stripe, Adyen) is one class implementing
 * `PaymentProvider`. Amounts are decimal strings ("12.50"), never JS numbers. Times are ISO 8601 strings: the caller
 * passes its clock as `now`, so a provider never reads a clock of its own.
 *
 * Every request carries an `idempotencyKey`. The same key with the same request answers the same outcome and never
 * charges or authorises twice: the provider keeps its own record of what it answered.
 */

export const PAYMENT_PROVIDER = Symbol('PaymentProvider');

export interface PaymentProvider {
  readonly name: string;
  attach(req: AttachRequest): Promise<AttachOutcome>;
  verify(req: VerifyRequest): Promise<VerifyOutcome>;
  confirmMicroDeposits(req: ConfirmMicroDepositsRequest): Promise<VerifyOutcome>;
  charge(req: ChargeRequest): Promise<ChargeOutcome>;
  completeAction(req: CompleteActionRequest): Promise<ChargeOutcome>;
  settle(req: SettleRequest): Promise<ChargeOutcome>;
  refund(req: RefundRequest): Promise<RefundOutcome>;
  /** The refund made for Tally's refund `reference` of a payment, whatever key asked for it; undefined: none was made. */
  findRefund(req: FindRefundRequest): Promise<FoundRefund | undefined>;
}

/** Thrown when an idempotency key comes back with a different request: a caller's bug, never a payment outcome. */
export class IdempotencyKeyReusedError extends Error {
  constructor(
    readonly operation: string,
    readonly idempotencyKey: string,
  ) {
    super(`Idempotency key ${idempotencyKey} was already used for a different ${operation} request`);
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** A card as a provider describes it: unlike a stored card, its country and funding are always known. */
export interface ProviderCardDetails extends CardDetails {
  country: string;
  funding: 'credit' | 'debit' | 'prepaid';
}

export interface AttachRequest {
  type: PaymentMethodType;
  token: string;
  now: string;
  idempotencyKey: string;
}

export type AttachOutcome =
  | {
      ok: true;
      providerRef: string;
      card: ProviderCardDetails | null;
      bank_account: BankAccountDetails | null;
      wallet: WalletDetails | null;
      verified: boolean;
    }
  | { ok: false; code: 'token_unknown' | 'token_type_mismatch'; message: string };

export interface VerifyRequest {
  providerRef: string;
  type: PaymentMethodType;
  idempotencyKey: string;
}

export type VerifyOutcome =
  | { status: 'verified' }
  | { status: 'verifying'; method: 'microdeposits' }
  | { status: 'failed'; code: string; message: string };

export interface ConfirmMicroDepositsRequest {
  providerRef: string;
  amounts: readonly [string, string];
  idempotencyKey: string;
}

export interface ChargeRequest {
  providerRef: string;
  amount: string;
  currency: string;
  now: string;
  idempotencyKey: string;
  returnUrl?: string;
}

/** The caller finishes a `requires_action` payment with `completeAction` once the customer has acted. */
export type NextAction =
  // No URL: the customer is sent to Tally's own hosted page, whose address the caller builds; the page then talks to the provider.
  | { type: 'redirect_to_url' }
  | { type: 'use_provider_sdk'; provider: string; payment_intent_client_secret: string };

/** A failed charge's error, in the shape Tally records (`last_error`). */
export type ChargeError = PaymentError;

export type ChargeOutcome =
  // `dispute`: the provider already reports a chargeback of this payment (the sandbox's tok_chargeback; a real adapter reports disputes as its webhooks bring them).
  | { status: 'succeeded'; providerPaymentId: string; capturedAt: string; dispute?: { reason: string } }
  // A bank payment settles later: `settle` answers its final outcome.
  | { status: 'processing'; providerPaymentId: string }
  | { status: 'requires_action'; providerPaymentId: string; nextAction: NextAction }
  | { status: 'failed'; providerPaymentId: string; error: ChargeError };

export interface CompleteActionRequest {
  providerPaymentId: string;
  outcome: 'succeeded' | 'failed';
  now: string;
  idempotencyKey: string;
}

export interface SettleRequest {
  providerPaymentId: string;
  now: string;
  idempotencyKey: string;
}

/** Returns `amount` of a succeeded payment to the method it was taken from. `reference`: Tally's refund (`rfd_…`), kept with it (as metadata) so it can be found. */
export interface RefundRequest {
  providerPaymentId: string;
  amount: string;
  currency: string;
  now: string;
  idempotencyKey: string;
  reference?: string;
}

/**
 * `ambiguous`: the provider may have refunded or not (an outage, a timeout): ask again under the
 * same key, which answers the refund if it was made. Otherwise it said no and refunded nothing.
 */
export type RefundOutcome = { status: 'succeeded'; providerRefundId: string; refundedAt: string } | { status: 'failed'; code: string; message: string; ambiguous: boolean };

export interface FindRefundRequest {
  providerPaymentId: string;
  reference: string;
}

export type FoundRefund = { providerRefundId: string; refundedAt: string };
