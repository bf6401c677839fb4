import { createHash } from 'node:crypto';

// Derived from the idempotency key, so a retried request names the same method or payment.
const hexOf = (value: string, length: number): string => createHash('sha256').update(value).digest('hex').slice(0, length);

export const providerRefFor = (idempotencyKey: string): string => `sbx_pm_${hexOf(idempotencyKey, 24)}`;

export const providerPaymentIdFor = (idempotencyKey: string): string => `sbx_py_${hexOf(idempotencyKey, 24)}`;

export const providerRefundIdFor = (idempotencyKey: string): string => `sbx_re_${hexOf(idempotencyKey, 24)}`;

export const clientSecretFor = (providerPaymentId: string, idempotencyKey: string): string =>
  `${providerPaymentId}_secret_${hexOf(`client_secret:${idempotencyKey}`, 16)}`;

/**
 * A digest of what a request asks for, kept to tell a retry from a different request under the same key without storing
 * the request. `now` is left out: a retry after a crash comes with a later clock.
 */
export const requestDigest = (request: object): string => {
  const asked = Object.entries(request)
    .filter(([field, value]) => field !== 'now' && field !== 'idempotencyKey' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return hexOf(JSON.stringify(asked), 64);
};
