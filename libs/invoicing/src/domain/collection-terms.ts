import { derivedId } from '@tally/kernel';

export type DunningFinalAction = 'cancel_subscription' | 'mark_uncollectible' | 'leave_past_due';

/** How a subscription invoice's failed payment is retried: its plan's dunning policy, or the default. */
export interface DunningTerms {
  /** Days after the first failure on which to retry, ascending: as many retries as days. */
  retry_days: number[];
  final_action: DunningFinalAction;
  /** The provider's `retriable_after` replaces the fixed day. */
  use_provider_hints: boolean;
}

/** Stripe's defaults, in days: retries over about two weeks, then the subscription is canceled. */
export const DEFAULT_DUNNING: DunningTerms = { retry_days: [1, 3, 5, 7], final_action: 'cancel_subscription', use_provider_hints: true };

/** The payment an invoice's automatic charge makes: one per invoice, whoever starts it. */
export const automaticPaymentId = (invoiceId: string): string => derivedId('pay', [invoiceId, 'automatic']);

/** The payment a settlement of the invoice from its customer's wallet makes: one per occasion (the finalisation, a credit of the wallet). */
export const walletSettlementPaymentId = (invoiceId: string, occasion: string): string => derivedId('pay', [invoiceId, 'wallet', occasion]);
