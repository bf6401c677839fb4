import { foldTargets } from './delivery-targets';
import type { DeliveryTarget } from './outbox-documents';

const AT = '2026-05-01T10:00:00.000Z';
const endpoint: DeliveryTarget = { id: 'we_1', url: 'https://example.com', events: ['*'], status: 'enabled', api_version: '2026-04-01', secrets: [{ secret: 'whsec_a', expires_at: null }] };
const rotate = (secret: string, expiresAt: string) => ({ type: 'WebhookEndpointSecretRotated' as const, data: { webhook_endpoint_id: 'we_1', secret, previous_secret_expires_at: expiresAt } });

describe('delivery targets', () => {
  it('signs with the new secret first and keeps the previous one until it expires', () => {
    const [rotated] = foldTargets([endpoint], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), AT);
    expect(rotated.secrets).toEqual([
      { secret: 'whsec_b', expires_at: null },
      { secret: 'whsec_a', expires_at: '2026-05-01T11:00:00.000Z' },
    ]);
  });

  it('keeps only the secret before the new one, and none that has already expired', () => {
    const twice = foldTargets(foldTargets([endpoint], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), AT), rotate('whsec_c', '2026-05-01T12:00:00.000Z'), AT);
    expect(twice[0].secrets.map(({ secret }) => secret)).toEqual(['whsec_c', 'whsec_b']);
    expect(foldTargets([endpoint], rotate('whsec_b', AT), AT)[0].secrets).toEqual([{ secret: 'whsec_b', expires_at: null }]);
  });

  it('changes nothing a delivery needs for a description or a failure, and drops a deleted endpoint', () => {
    const endpoints = [endpoint];
    expect(foldTargets(endpoints, { type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: 'we_1', description: 'x' } }, AT)).toBe(endpoints);
    expect(foldTargets(endpoints, { type: 'WebhookEndpointDeleted', data: { webhook_endpoint_id: 'we_1' } }, AT)).toEqual([]);
  });
});
