/** The spec's 5 attempts over about 24 hours: each attempt's time after the refund's creation, in hours. */
export const REFUND_ATTEMPT_HOURS: readonly number[] = [0, 1, 3, 9, 24];

export const MAX_REFUND_ATTEMPTS = REFUND_ATTEMPT_HOURS.length;

/** When attempt `attempt` (1-based) is due; undefined after the last. */
export function refundAttemptDueAt(createdAt: string, attempt: number): string | undefined {
  const hours = REFUND_ATTEMPT_HOURS[attempt - 1];
  return hours === undefined ? undefined : new Date(Date.parse(createdAt) + hours * 3_600_000).toISOString();
}

/** The provider's idempotency key of an attempt: a declined attempt's retry is a new request, an ambiguous one's asks again. */
export const refundAttemptKey = (refundId: string, attempt: number): string => `refund:${refundId}:${attempt}`;
