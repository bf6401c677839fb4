const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The pause after each failed attempt, before jitter: Svix's schedule, the anchor for webhook delivery. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** A delivery keeps trying this long after its first attempt; the last attempt is made at this horizon. */
export const RETRY_HORIZON_MS = 24 * HOUR;
/** Each pause is moved by up to this share either way, so that receivers that failed together are not retried together. */
const JITTER = 0.1;

/**
 * When to try again after the failed attempt number `attempt` (from 1), made at `attemptedAt` for
 * a delivery first attempted at `firstAttemptAt`; undefined when the delivery has failed for good.
 * `jitter` is a number in [0, 1) from the caller's source of randomness.
 */
export function nextAttemptAt(attempt: number, firstAttemptAt: Date, attemptedAt: Date, jitter: number): Date | undefined {
  const horizon = firstAttemptAt.getTime() + RETRY_HORIZON_MS;
  if (attemptedAt.getTime() >= horizon) return undefined;
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return new Date(horizon);
  const jittered = Math.round(delay * (1 - JITTER + 2 * JITTER * jitter));
  return new Date(Math.min(attemptedAt.getTime() + jittered, horizon));
}
