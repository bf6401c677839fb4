import type { PaymentError } from '@tally/kernel';
import type { DunningTerms } from '@tally/invoicing/published';

/** The terms come with the invoice, which carries them from its issue. */
export type { DunningFinalAction, DunningTerms } from '@tally/invoicing/published';

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
