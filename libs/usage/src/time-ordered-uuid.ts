import { randomBytes } from 'node:crypto';

/** A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, so keys generated later sort later. */
export function timeOrderedUuid(now: Date): string {
  const hex = now.getTime().toString(16).padStart(12, '0').slice(-12) + randomBytes(10).toString('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
