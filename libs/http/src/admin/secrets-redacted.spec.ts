import { secretsRedacted } from './secrets-redacted';

const tenant = { idPrefix: 'ten', type: 'tenant', secretFields: [{ eventType: 'ApiKeyCreated', field: 'key_hash' }] };

describe('secrets redacted from the history', () => {
  it('shows the secret fields of the named event types as [redacted], and every other field as stored', () => {
    const data = { tenant_id: 'ten_1', key_id: 'key_1', key_hash: 'a1b2', last4: 'wxyz' };
    expect(secretsRedacted(tenant, 'ApiKeyCreated', data)).toEqual({ tenant_id: 'ten_1', key_id: 'key_1', key_hash: '[redacted]', last4: 'wxyz' });
    expect(data.key_hash).toBe('a1b2');
  });

  it('leaves other event types, an absent field and aggregate types without secrets alone', () => {
    const renamed = { tenant_id: 'ten_1', name: 'Acme', key_hash: 'not a secret here' };
    expect(secretsRedacted(tenant, 'TenantRenamed', renamed)).toBe(renamed);
    expect(secretsRedacted(tenant, 'ApiKeyCreated', { key_id: 'key_1' })).toEqual({ key_id: 'key_1' });
    expect(secretsRedacted({ idPrefix: 'cus', type: 'customer' }, 'CustomerCreated', renamed)).toBe(renamed);
  });
});
