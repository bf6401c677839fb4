import type { Event, Metadata, PaymentError } from '@tally/kernel';
import type { TaxBehavior, TaxCode } from '@tally/tax/published';
import type { DunningTerms, DunningFinalAction } from './collection-terms';
import type { DiscountLevel } from './discounts';

export type InvoiceStatus = 'draft' | 'open' | 'partially_paid' | 'paid' | 'void' | 'uncollectible';

/** Why an invoice exists: by hand, or the event of a subscription that billed it (Stripe's values). */
export type BillingReason = 'manual' | 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'subscription_cancel';
export const BILLING_REASONS: readonly BillingReason[] = ['manual', 'subscription_create', 'subscription_cycle', 'subscription_update', 'subscription_cancel'];

/** Stripe's credit-note reasons, and the spec's other refund reasons (a refund's credit note takes its refund's). */
export type CreditNoteReason = 'duplicate' | 'fraudulent' | 'order_change' | 'product_unsatisfactory' | 'customer_request' | 'service_outage' | 'other';
export const CREDIT_NOTE_REASONS: readonly CreditNoteReason[] = ['duplicate', 'fraudulent', 'order_change', 'product_unsatisfactory', 'customer_request', 'service_outage', 'other'];

/** One line as the draft holds it; money as decimal strings, `amount` already rounded to the currency. */
export interface InvoiceLineData {
  line_id: string;
  /** The plan component's code for a subscription's line; null for a line added by hand. */
  code: string | null;
  description: string;
  quantity: string;
  /** null for a graduated line (tiered, volume, usage) priced by bands. */
  unit_amount: string | null;
  amount: string;
  period_start: string | null;
  period_end: string | null;
  proration: boolean;
  price_version: number | null;
  tax_code: TaxCode;
  metadata: Metadata;
}

/** A coupon's terms as the invoice keeps them until finalisation (see domain/discounts.ts). */
export interface DiscountTerms {
  coupon_id: string;
  level: DiscountLevel;
  percent_off: string | null;
  amount_off: string | null;
  components: string[] | null;
}

export interface TaxBreakdownData {
  jurisdiction: string;
  country: string;
  region: string | null;
  tax_type: string;
  rate: string;
  taxability_reason: string;
  taxable_amount: string;
  tax_amount: string;
}

/** Discounts and tax of every line, and the sums: total = subtotal − discount + tax, exactly. */
export interface InvoiceTotalsData {
  /** `total`: what the line comes to after its discounts, with its tax; what credit notes can credit of it. */
  lines: { line_id: string; discount_amount: string; tax_amount: string; tax_rate: string; total: string }[];
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  tax_breakdown: TaxBreakdownData[];
  discounts: { coupon_id: string; level: DiscountLevel; amount: string }[];
  /** The tax table used; null when the tenant has set no tax origin and no tax was calculated. */
  tax_table_version: string | null;
  reverse_charge: boolean;
}

export type InvoiceCreated = Event<
  'InvoiceCreated',
  {
    invoice_id: string;
    customer_id: string;
    subscription_id: string | null;
    billing_reason: BillingReason;
    currency: string;
    tax_behavior: TaxBehavior;
    auto_charge: boolean;
    description: string | null;
    /** A due date fixed on the draft; otherwise `days_until_due` after finalisation. */
    due_at: string | null;
    days_until_due: number | null;
    period_start: string | null;
    period_end: string | null;
    metadata: Metadata;
    lines: InvoiceLineData[];
    discounts: DiscountTerms[];
    /**
     * What collecting it takes, fixed at its issue: the method to charge (a subscription's own
     * default, else its customer's; null: none then) and the retry terms of a failed payment (a
     * subscription invoice's plan's; null: no dunning). Absent from invoices created before.
     */
    payment_method_id?: string | null;
    dunning?: DunningTerms | null;
  }
>;

/** The draft fields that changed, with their new values. */
export type InvoiceDraftUpdated = Event<
  'InvoiceDraftUpdated',
  { invoice_id: string; description?: string | null; due_at?: string | null; days_until_due?: number | null; metadata?: Metadata; auto_charge?: boolean }
>;

export type InvoiceLineAdded = Event<'InvoiceLineAdded', { invoice_id: string; line: InvoiceLineData }>;
export type InvoiceLineRemoved = Event<'InvoiceLineRemoved', { invoice_id: string; line_id: string }>;

/** The draft's discounts and tax as they would be now (`/recompute-tax`); any change of lines clears it. */
export type InvoiceTaxComputed = Event<'InvoiceTaxComputed', { invoice_id: string; totals: InvoiceTotalsData }>;

/**
 * Whose money settles an invoice: its customer, in its currency, the key of the settlement of open
 * invoices from the customer's wallet. Absent on events recorded before they carried it.
 */
export interface InvoicePayer {
  customer_id?: string;
  currency?: string;
}

/** Draft → open: lines locked, the totals fixed, the number from the tenant's sequence. */
export type InvoiceFinalized = Event<
  'InvoiceFinalized',
  InvoicePayer & {
    invoice_id: string;
    number: string;
    issued_at: string;
    due_at: string;
    totals: InvoiceTotalsData;
    /** The customer's wallet in the invoice's currency at finalisation, which settles it first (absent: none). */
    wallet_id?: string;
    /** With `wallet_id`: the method an automatic charge takes what the wallet leaves to pay with, when the draft named none. */
    payment_method_id?: string;
    /** Nothing collects it at finalisation (no wallet settles it, no automatic charge starts): it waits for its customer's payment. */
    awaits_payment?: boolean;
  }
>;

export type InvoicePaymentApplied = Event<'InvoicePaymentApplied', { invoice_id: string; payment_id: string; amount: string }>;

/**
 * A payment attempt began for what was due: while it is open no other attempt starts, so two pay
 * requests racing on one invoice charge once. It holds all the payment needs, so the payment is
 * created from it even when the request that started it died.
 */
export type InvoicePaymentStarted = Event<
  'InvoicePaymentStarted',
  {
    invoice_id: string;
    payment_id: string;
    customer_id: string;
    subscription_id: string | null;
    payment_method_id: string;
    amount: string;
    currency: string;
    reason: 'manual' | 'automatic' | 'retry';
    /** The invoice's retry terms, should the payment fail (absent from attempts started before the invoice carried them). */
    dunning?: DunningTerms | null;
    /** Where the hosted action page sends the customer back to, when the payer gave one (and only then). */
    return_url?: string;
    /** `wallet`: a settlement from the customer's wallet (`payment_method_id` is then the wallet's id); absent: a charge of the payment method. */
    source?: 'wallet';
  }
>;

/** How an attempt's end leaves the invoice: `awaits_payment` when something is left to pay and no charge follows. */
interface AttemptEnded extends InvoicePayer {
  awaits_payment?: boolean;
}

/** The attempt failed (`invoice.payment_failed`): the invoice stays payable. */
export type InvoicePaymentFailed = Event<'InvoicePaymentFailed', AttemptEnded & { invoice_id: string; payment_id: string; subscription_id: string | null; last_error: PaymentError }>;

export type InvoicePaymentCanceled = Event<'InvoicePaymentCanceled', AttemptEnded & { invoice_id: string; payment_id: string }>;

/** Why a succeeded payment was not applied: the invoice's status then, more than was due, or its attempt had ended (canceled or failed). */
export type PaymentNotAppliedReason = `invoice_${'draft' | 'paid' | 'void' | 'uncollectible'}` | 'exceeds_amount_due' | 'attempt_closed';

/**
 * A payment succeeded that the invoice can no longer take: nothing is applied, its attempt (if
 * still open) ends, and the payment is to be returned to the customer, never kept unrecorded.
 */
export type InvoicePaymentNotApplied = Event<'InvoicePaymentNotApplied', { invoice_id: string; payment_id: string; amount: string; reason: PaymentNotAppliedReason }>;

/** Nothing is left to pay: paid in full, a zero total, or credit notes took the rest off. */
export type InvoicePaid = Event<'InvoicePaid', InvoicePayer & { invoice_id: string; subscription_id: string | null }>;
/** `wallet_returned`: what the customer's wallet (`wallet_id`) paid on it, credited back to the wallet (absent: nothing). */
export type InvoiceVoided = Event<'InvoiceVoided', InvoicePayer & { invoice_id: string; wallet_id?: string; wallet_returned?: string }>;
export type InvoiceMarkedUncollectible = Event<'InvoiceMarkedUncollectible', InvoicePayer & { invoice_id: string }>;

/**
 * Dunning used up its retries on the invoice: its final action, for the context it concerns (the
 * subscriptions context cancels the subscription; a write-off follows in the same append).
 */
export type InvoiceRetriesExhausted = Event<'InvoiceRetriesExhausted', { invoice_id: string; subscription_id: string | null; final_action: Exclude<DunningFinalAction, 'leave_past_due'> }>;

/** What a credit note does with what it credits: nothing more (it lowered what was due), a refund of a payment, or a credit to the customer's wallet. */
export type CreditNoteOutcomeKind = 'none' | 'refund' | 'credit_balance';
export const CREDIT_NOTE_OUTCOMES: readonly CreditNoteOutcomeKind[] = ['none', 'refund', 'credit_balance'];

/** `pending_manual`: the refund failed on every attempt and waits for an operator's resolution. */
export interface CreditNoteOutcome {
  kind: CreditNoteOutcomeKind | 'pending_manual';
  refund_status: 'pending' | 'succeeded' | 'failed' | null;
}

/** How an operator closed a `pending_manual` credit note. */
export type CreditNoteResolution = 'refunded_out_of_band' | 'credited_to_wallet';
export const CREDIT_NOTE_RESOLUTIONS: readonly CreditNoteResolution[] = ['refunded_out_of_band', 'credited_to_wallet'];

/** A line credited: `amount` with its tax, `tax_amount` the tax in it at the line's own rate. */
export interface CreditNoteLineData {
  line_id: string;
  amount: string;
  tax_amount: string;
}

export type CreditNoteIssued = Event<
  'CreditNoteIssued',
  {
    invoice_id: string;
    credit_note_id: string;
    /** From the tenant's gap-free credit-note sequence, `<prefix>-CN-000001` (`<invoice number>-CN-01`, … on notes issued before it). */
    number: string;
    amount: string;
    reason: CreditNoteReason;
    memo: string | null;
    lines: CreditNoteLineData[];
    /** Version 2 (version 1 reads as `none`, no refund, no payment, and its lines without tax). */
    outcome: CreditNoteOutcome;
    /** The refund (`rfd_…`) that issued it, and the payment it refunds. */
    refund_id: string | null;
    payment_id: string | null;
    /** True when issued before the invoice was paid: it lowers what is left to pay (Stripe's pre-payment credit note). */
    pre_payment: boolean;
    created_at: string;
  }
>;

/**
 * A credit note decided: what it credits is taken off at once (a concurrent credit note or payment
 * sees it), and its number is reserved from the tenant's credit-note sequence next; its
 * `CreditNoteIssued` with that number follows (the credit-note numbering reaction completes it
 * after a crash), so every reserved number ends on a credit note and none is skipped.
 */
export type CreditNoteDecided = Event<'CreditNoteDecided', Omit<CreditNoteIssued['data'], 'number'>>;

/** The refund of a credit note succeeded, or an attempt of it failed (it is retried). */
export type CreditNoteRefundUpdated = Event<'CreditNoteRefundUpdated', { invoice_id: string; credit_note_id: string; refund_status: 'succeeded' | 'failed' }>;

/** Every attempt of the credit note's refund failed: its outcome is `pending_manual` until an operator resolves it. */
export type CreditNoteRefundFailed = Event<'CreditNoteRefundFailed', { invoice_id: string; credit_note_id: string; refund_id: string | null }>;

export type CreditNoteResolved = Event<'CreditNoteResolved', { invoice_id: string; credit_note_id: string; resolution: CreditNoteResolution; resolved_at: string }>;

export type InvoiceEvent =
  | InvoiceCreated
  | InvoiceDraftUpdated
  | InvoiceLineAdded
  | InvoiceLineRemoved
  | InvoiceTaxComputed
  | InvoiceFinalized
  | InvoicePaymentApplied
  | InvoicePaymentStarted
  | InvoicePaymentFailed
  | InvoicePaymentCanceled
  | InvoicePaymentNotApplied
  | InvoicePaid
  | InvoiceVoided
  | InvoiceMarkedUncollectible
  | InvoiceRetriesExhausted
  | CreditNoteDecided
  | CreditNoteIssued
  | CreditNoteRefundUpdated
  | CreditNoteRefundFailed
  | CreditNoteResolved;
