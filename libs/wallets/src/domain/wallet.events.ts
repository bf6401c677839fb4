import type { Event, Metadata } from '@tally/kernel';

/** Why money came into a wallet (the spec's enum; required and audited on every credit). */
export const WALLET_CREDIT_REASONS = ['manual_topup', 'auto_topup', 'credit_note', 'promotional', 'refund', 'migration'] as const;
export type WalletCreditReason = (typeof WALLET_CREDIT_REASONS)[number];

/** Why money left a wallet. */
export const WALLET_DEBIT_REASONS = ['manual', 'invoice_settlement', 'correction'] as const;
export type WalletDebitReason = (typeof WALLET_DEBIT_REASONS)[number];

export const WALLET_SOURCE_TYPES = ['invoice', 'payment', 'credit_note', 'refund', 'grant', 'manual', 'top_up'] as const;
export type WalletSourceType = (typeof WALLET_SOURCE_TYPES)[number];

/** What a transaction came from: the invoice it settled, the credit note or refund it returns, the payment of a top-up. */
export interface WalletSource {
  type: WalletSourceType;
  id: string | null;
}

/** Charge `amount` (as many times as it takes to get above `trigger_at`) to the customer's payment method when a debit leaves the balance at or below `trigger_at`. */
export interface AutoTopUp {
  enabled: boolean;
  trigger_at: string;
  amount: string;
  payment_method_id: string;
}

/** One posted movement of a wallet's balance: immutable, in the wallet's stream, its id chosen by the sender (`wtx_…`). */
export interface WalletTransaction {
  transaction_id: string;
  type: 'credit' | 'debit';
  amount: string;
  balance_after: string;
  reason: WalletCreditReason | WalletDebitReason;
  source: WalletSource;
  external_id: string | null;
  description: string | null;
  created_at: string;
}

export type WalletCreated = Event<
  'WalletCreated',
  { wallet_id: string; customer_id: string; currency: string; auto_top_up: AutoTopUp | null; drift_floor: string | null; metadata: Metadata }
>;

/** Carries the new value of each changed field only. */
export type WalletUpdated = Event<'WalletUpdated', { wallet_id: string; auto_top_up?: AutoTopUp | null; drift_floor?: string | null; metadata?: Metadata }>;

interface Posting {
  wallet_id: string;
  customer_id: string;
  currency: string;
  transaction: WalletTransaction;
}

export type WalletCredited = Event<'WalletCredited', Posting & { transaction: WalletTransaction & { type: 'credit'; reason: WalletCreditReason } }>;
export type WalletDebited = Event<'WalletDebited', Posting & { transaction: WalletTransaction & { type: 'debit'; reason: WalletDebitReason } }>;

interface TopUp {
  wallet_id: string;
  customer_id: string;
  currency: string;
  /** Also the provider's idempotency key and the id of the credit the top-up posts: one charge per trigger. */
  top_up_id: string;
  amount: string;
  payment_method_id: string;
}

/** A debit left the balance at or below `trigger_at`: one charge of `amount` × k (the smallest k that gets above it) is due. */
export type WalletAutoTopUpTriggered = Event<'WalletAutoTopUpTriggered', TopUp & { trigger_transaction_id: string }>;

export type WalletAutoTopUpSucceeded = Event<'WalletAutoTopUpSucceeded', TopUp & { payment_id: string; transaction_id: string }>;

/** The charge was declined: no new top-up before `retry_at` (the back-off), when the wallet looks again. */
export type WalletAutoTopUpFailed = Event<'WalletAutoTopUpFailed', TopUp & { last_error: { code: string; message: string }; retry_at: string }>;

/** The balance went below the drift floor; latched until it is back at or above it. */
export type WalletBelowDriftFloor = Event<'WalletBelowDriftFloor', { wallet_id: string; customer_id: string; currency: string; drift_floor: string; balance: string }>;

export type WalletEvent =
  | WalletCreated
  | WalletUpdated
  | WalletCredited
  | WalletDebited
  | WalletAutoTopUpTriggered
  | WalletAutoTopUpSucceeded
  | WalletAutoTopUpFailed
  | WalletBelowDriftFloor;
