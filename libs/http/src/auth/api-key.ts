import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '@tally/cells';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX: Record<Environment, string> = { live: 'sk_live_', sandbox: 'sk_test_' };

/** A new secret API key; the key names its environment. */
export function newApiKey(environment: Environment): string {
  const random = [...randomBytes(32)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return PREFIX[environment] + random;
}

/** Keys are stored only as this hash. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function environmentOfKey(key: string): Environment | undefined {
  if (key.startsWith(PREFIX.live)) return 'live';
  if (key.startsWith(PREFIX.sandbox)) return 'sandbox';
  return undefined;
}
