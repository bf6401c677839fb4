import type { PaymentError } from '@tally/kernel';

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

const DAY_MS = 86_400_000;

const later = (a: string, b: string): string => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * When the retry after `retriesMade` retries is due: the fixed day after the first failure, or,
 * with provider hints, the failure's `retriable_after` in its place; never before `retriable_after`.
 */
export function retryDueAt(terms: DunningTerms, firstFailureAt: string, retriesMade: number, error: PaymentError): string {
  const fixed = new Date(Date.parse(firstFailureAt) + terms.retry_days[retriesMade] * DAY_MS).toISOString();
  const hint = error.retriable_after;
  if (!hint) return fixed;
  return terms.use_provider_hints ? hint : later(fixed, hint);
}

/** When the schedule ends for a failure that may not be retried: the day of the last retry there would have been. */
export function scheduleEndAt(terms: DunningTerms, firstFailureAt: string): string {
  const last = terms.retry_days[terms.retry_days.length - 1] ?? 0;
  return new Date(Date.parse(firstFailureAt) + last * DAY_MS).toISOString();
}
