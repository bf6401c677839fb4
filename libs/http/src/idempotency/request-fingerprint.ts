import { createHash } from 'node:crypto';
import { canonicalJson, keyedObject, looksLikeCardNumber } from '@tally/kernel';

/** The placeholder a card number takes in a fingerprint. */
const CARD_NUMBER = '[card number]';

/**
 * SHA-256 of the body's canonical JSON: the same parameters in any key order give the same
 * fingerprint. A string that looks like a card number is replaced first: the fingerprint is
 * stored with the idempotency key, and an unkeyed hash of a card number could be reversed by
 * trying the few numbers a card can have. Every such request is refused anyway.
 */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(withoutCardNumbers(body))).digest('base64url');
}

function withoutCardNumbers(value: unknown): unknown {
  if (typeof value === 'string') return looksLikeCardNumber(value) ? CARD_NUMBER : value;
  if (Array.isArray(value)) return value.map(withoutCardNumbers);
  if (value !== null && typeof value === 'object') return keyedObject(Object.entries(value).map(([key, field]) => [key, withoutCardNumbers(field)] as const));
  return value;
}
