import { DomainError } from '@tally/kernel';
import { isBefore, type ApiVersion } from '../versions/api-versions';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Set on a replay whose request body differs from the first request's with that key. */
export const BODY_MISMATCH_HEADER = 'Idempotent-Body-Mismatch';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR_MS = 3_600_000;

/** The key of an `Idempotency-Key` header: a UUID, in lower case, since UUIDs compare case-insensitively. */
export function parseIdempotencyKey(header: string | string[]): string {
  if (typeof header !== 'string' || !UUID.test(header)) {
    throw DomainError.invalid('idempotency.invalid_key', 'Idempotency-Key takes a UUID, e.g. 4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11', [
      { field: 'Idempotency-Key', code: 'idempotency.invalid_key', message: 'a UUID' },
    ]);
  }
  return header.toLowerCase();
}

/** How long a key is remembered: 24 hours, 12 in versions before 2025-10-01. */
export const keyLifetimeMs = (version: ApiVersion): number => (isBefore(version, '2025-10-01') ? 12 : 24) * HOUR_MS;
