import { createHmac } from 'node:crypto';

/**
 * The signature header's value, Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA-256 of
 * "<t>.<raw body>">`, one `v1` per live secret (two while a rotated secret overlaps its successor).
 */
export function signatureHeaderValue(secrets: readonly string[], timestamp: number, body: string): string {
  const signed = `${timestamp}.${body}`;
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed).digest('hex')}`)].join(',');
}
