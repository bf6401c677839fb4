import type { Address, Event, Metadata } from '@tally/kernel';

export type PaymentMethodType = 'card' | 'bank_account' | 'paypal' | 'wallet';

export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  country: string | null;
  funding: string;
}

export type BankAccountStatus = 'new' | 'verifying' | 'verified' | 'verification_failed';

export interface BankAccountDetails {
  last4: string;
  routing: string;
  holder: string;
  status: BankAccountStatus;
}

export interface WalletDetails {
  kind: 'paypal' | 'apple_pay' | 'google_pay';
  email: string | null;
}

/**
 * A provider-tokenised method attached to a customer. Only the details matching `type` are set.
 * `expires_at` is the first instant after a card's expiry month (null: it does not expire).
 * Personal data (billing address, metadata, the bank account's holder, a PayPal email) is sealed
 * with the customer's data key; see payment-method.pii.ts.
 */
export type PaymentMethodAttached = Event<
  'PaymentMethodAttached',
  {
    payment_method_id: string;
    customer_id: string;
    type: PaymentMethodType;
    provider: string;
    provider_ref: string;
    card: CardDetails | null;
    bank_account: BankAccountDetails | null;
    wallet: WalletDetails | null;
    verified: boolean;
    expires_at: string | null;
    billing_address: Address | null;
    metadata: Metadata;
    set_as_default: boolean;
  }
>;

export type PaymentMethodUpdated = Event<'PaymentMethodUpdated', { payment_method_id: string; customer_id: string; billing_address?: Address | null; metadata?: Metadata }>;

/** Micro-deposits were sent to a bank account; it is verified when the customer confirms their amounts. */
export type PaymentMethodVerificationStarted = Event<'PaymentMethodVerificationStarted', { payment_method_id: string; customer_id: string; method: 'microdeposits' }>;

export type PaymentMethodVerified = Event<'PaymentMethodVerified', { payment_method_id: string; customer_id: string }>;

export type PaymentMethodExpiring = Event<'PaymentMethodExpiring', { payment_method_id: string; customer_id: string; expires_at: string }>;

export type PaymentMethodExpired = Event<'PaymentMethodExpired', { payment_method_id: string; customer_id: string }>;

export type PaymentMethodDetached = Event<'PaymentMethodDetached', { payment_method_id: string; customer_id: string }>;

export type PaymentMethodEvent =
  | PaymentMethodAttached
  | PaymentMethodUpdated
  | PaymentMethodVerificationStarted
  | PaymentMethodVerified
  | PaymentMethodExpiring
  | PaymentMethodExpired
  | PaymentMethodDetached;
