import type { ClaimOutcome, StoredResponse } from './idempotency-store.port';

/**
 * Expired records are deleted a few at a time by each new claim: as many or more go as come, so the
 * stored records stay about the live ones without a sweeper.
 */
export const PURGE_BATCH = 10;

/** An expired record, or a running claim whose lock has lapsed, no longer holds its key. */
export function isVacant(record: { completed: boolean; lockedUntil: Date; expiresAt: Date }, now: Date): boolean {
  return record.expiresAt <= now || (!record.completed && record.lockedUntil <= now);
}

/** What a live record means for a claim with `fingerprint`. */
export function classifyRecord(storedFingerprint: string, response: StoredResponse | undefined, fingerprint: string): ClaimOutcome {
  return response ? { outcome: 'completed', response, sameBody: storedFingerprint === fingerprint } : { outcome: 'in_progress' };
}
