import { hash } from 'node:crypto';
import type { UsageRecord } from './domain/usage.events';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * 128 bits of SHA-256 of (subscription, meter, external id), base64url: a key of fixed size however
 * long the external id, so the index stays small; two keys alike by chance are beyond any
 * realistic count. The keys are stored, so the form never changes. It is made from the whole
 * digest's text (the one-shot `hash` is several times cheaper than a Hash object, and this runs
 * for every event): its first 21 characters are the first 126 bits; the 22nd holds the last 2 bits
 * of the 16th byte and 4 of the 17th, which the 16-byte encoding pads with zeros instead.
 */
export function usageDedupeKey(record: Pick<UsageRecord, 'subscription_id' | 'meter' | 'external_id'>): string {
  const digest = hash('sha256', JSON.stringify([record.subscription_id, record.meter, record.external_id]), 'base64url');
  return digest.slice(0, 21) + BASE64URL[BASE64URL.indexOf(digest[21]) & 0b110000];
}

/** Where the event a dedupe key counted is in the log: its batch's position and its index there (`1234/7`). */
export interface CountedAt {
  position: bigint;
  index: number;
}

/** The ref the dedupe index keeps with a key: where the event that counted it is. */
export const countedRef = ({ position, index }: CountedAt): string => `${position}/${index}`;

export function countedAt(ref: string): CountedAt {
  const [position, index] = ref.split('/');
  return { position: BigInt(position), index: Number(index) };
}
