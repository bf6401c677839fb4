import { foldTargets } from './delivery-targets';
import type { DeliveryTarget } from './outbox-documents';

const AT = '2026-05-01T10:00:00.000Z';
const endpoint: DeliveryTarget = { id: 'we_1', url: 'https://example.com', events: ['*'], status: 'enabled', api_version: '2026-04-01', secrets: [{ revision: 0, expires_at: null }] };
const rotate = (secret: string, expiresAt: string) => ({ type: 'WebhookEndpointSecretRotated' as const, data: { webhook_endpoint_id: 'we_1', secret, previous_secret_expires_at: expiresAt } });

describe('delivery targets', () => {
  it('keeps where each secret is (the revision of the endpoint’s event that holds it sealed), never the secret', () => {
    const created = { type: 'WebhookEndpointCreated' as const, data: { webhook_endpoint_id: 'we_2', url: 'https://example.com', events: ['*'], description: null, api_version: '2026-04-01', secret: 'whsec_z' } };
    const [, added] = foldTargets([endpoint], created, 0, AT);
    expect(added).toEqual({ id: 'we_2', url: 'https://example.com', events: ['*'], status: 'enabled', api_version: '2026-04-01', secrets: [{ revision: 0, expires_at: null }] });
    expect(JSON.stringify(foldTargets([endpoint], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), 3, AT))).not.toContain('whsec_b');
  });

  it('signs with the new secret first and keeps the previous one until it expires', () => {
    const [rotated] = foldTargets([endpoint], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), 3, AT);
    expect(rotated.secrets).toEqual([
      { revision: 3, expires_at: null },
      { revision: 0, expires_at: '2026-05-01T11:00:00.000Z' },
    ]);
  });

  it('keeps only the secret before the new one, and none that has already expired', () => {
    const twice = foldTargets(foldTargets([endpoint], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), 1, AT), rotate('whsec_c', '2026-05-01T12:00:00.000Z'), 2, AT);
    expect(twice[0].secrets).toEqual([
      { revision: 2, expires_at: null },
      { revision: 1, expires_at: '2026-05-01T12:00:00.000Z' },
    ]);
    expect(foldTargets([endpoint], rotate('whsec_b', AT), 1, AT)[0].secrets).toEqual([{ revision: 1, expires_at: null }]);
  });

  it('keeps a secret that a read model written before sealing holds, as the previous one of a rotation', () => {
    const legacy: DeliveryTarget = { ...endpoint, secrets: [{ secret: 'whsec_a', expires_at: null }] };
    expect(foldTargets([legacy], rotate('whsec_b', '2026-05-01T11:00:00.000Z'), 4, AT)[0].secrets).toEqual([
      { revision: 4, expires_at: null },
      { secret: 'whsec_a', expires_at: '2026-05-01T11:00:00.000Z' },
    ]);
  });

  it('changes nothing a delivery needs for a description or a failure, and drops a deleted endpoint', () => {
    const endpoints = [endpoint];
    expect(foldTargets(endpoints, { type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: 'we_1', description: 'x' } }, 1, AT)).toBe(endpoints);
    expect(foldTargets(endpoints, { type: 'WebhookEndpointDeleted', data: { webhook_endpoint_id: 'we_1' } }, 2, AT)).toEqual([]);
  });
});
