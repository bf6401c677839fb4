/**
 * The money events the ledger posts, as far as it reads them: structural types of other
 * contexts' events (a domain imports no other context's domain). Wallet and refund events are
 * written against the shapes the wallets and refunds contexts publish.
 */

export interface LedgerEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

type InvoiceTotals = { lines: readonly { line_id: string; tax_amount: string; total: string }[]; subtotal: string; discount: string; tax: string; total: string };

export type InvoiceCreated = LedgerEvent<'InvoiceCreated', { invoice_id: string; customer_id: string; currency: string }>;
export type InvoiceFinalized = LedgerEvent<'InvoiceFinalized', { invoice_id: string; number: string; totals: InvoiceTotals }>;
export type InvoicePaymentApplied = LedgerEvent<'InvoicePaymentApplied', { invoice_id: string; payment_id: string; amount: string }>;
export type InvoiceVoided = LedgerEvent<'InvoiceVoided', { invoice_id: string }>;
export type InvoiceMarkedUncollectible = LedgerEvent<'InvoiceMarkedUncollectible', { invoice_id: string }>;
export type CreditNoteIssued = LedgerEvent<
  'CreditNoteIssued',
  { invoice_id: string; credit_note_id: string; amount: string; lines: readonly { line_id: string; amount: string }[]; pre_payment: boolean }
>;

export type PaymentCreated = LedgerEvent<'PaymentCreated', { payment_id: string; invoice_id: string; provider: string; amount: string; currency: string }>;
export type PaymentSucceeded = LedgerEvent<'PaymentSucceeded', { payment_id: string }>;
export type PaymentRefunded = LedgerEvent<'PaymentRefunded', { payment_id: string; refund_id: string; amount: string; reason: string }>;
export type PaymentChargedBack = LedgerEvent<'PaymentChargedBack', { payment_id: string; amount: string }>;
export type PaymentDisputeWon = LedgerEvent<'PaymentDisputeWon', { payment_id: string }>;

export type WalletCreditReason = 'manual_topup' | 'auto_topup' | 'credit_note' | 'promotional' | 'refund' | 'migration';
export type WalletDebitReason = 'manual' | 'invoice_settlement' | 'correction';
interface WalletTransaction<K extends 'credit' | 'debit', R extends string> {
  transaction_id: string;
  type: K;
  amount: string;
  reason: R;
  source: { type: string; id: string | null };
}
export type WalletCredited = LedgerEvent<'WalletCredited', { wallet_id: string; customer_id: string; currency: string; transaction: WalletTransaction<'credit', WalletCreditReason> }>;
export type WalletDebited = LedgerEvent<'WalletDebited', { wallet_id: string; customer_id: string; currency: string; transaction: WalletTransaction<'debit', WalletDebitReason> }>;

export type RefundDestination = 'original_method' | 'wallet';
export type RefundCreated = LedgerEvent<'RefundCreated', { refund_id: string; payment_id: string; amount: string; currency: string; destination: RefundDestination }>;
export type RefundSucceeded = LedgerEvent<'RefundSucceeded', { refund_id: string; wallet_transaction_id?: string | null }>;
/** The provider reported a refund it had answered as made failed after all: the money is owed again. */
export type RefundReversed = LedgerEvent<'RefundReversed', { refund_id: string }>;

export type PostedEvent =
  | InvoiceCreated
  | InvoiceFinalized
  | InvoicePaymentApplied
  | InvoiceVoided
  | InvoiceMarkedUncollectible
  | CreditNoteIssued
  | PaymentCreated
  | PaymentSucceeded
  | PaymentRefunded
  | PaymentChargedBack
  | PaymentDisputeWon
  | WalletCredited
  | WalletDebited
  | RefundCreated
  | RefundSucceeded
  | RefundReversed;

export const POSTED_EVENT_TYPES: ReadonlySet<string> = new Set<PostedEvent['type']>([
  'InvoiceCreated',
  'InvoiceFinalized',
  'InvoicePaymentApplied',
  'InvoiceVoided',
  'InvoiceMarkedUncollectible',
  'CreditNoteIssued',
  'PaymentCreated',
  'PaymentSucceeded',
  'PaymentRefunded',
  'PaymentChargedBack',
  'PaymentDisputeWon',
  'WalletCredited',
  'WalletDebited',
  'RefundCreated',
  'RefundSucceeded',
  'RefundReversed',
]);
