import { createHash } from 'node:crypto';
import { canonicalJson } from '@tally/kernel';

/** SHA-256 of the body's canonical JSON: the same parameters in any key order give the same fingerprint. */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}
