import type { Event } from '@tally/kernel';

export type Region = 'us' | 'eu' | 'apac';
export type KeyEnvironment = 'live' | 'sandbox';

export type TenantCreated = Event<'TenantCreated', { tenant_id: string; name: string; region: Region }>;

/** Only the key's hash is stored; the key itself is shown once, to whoever created it. */
export type ApiKeyCreated = Event<'ApiKeyCreated', { tenant_id: string; key_id: string; environment: KeyEnvironment; key_hash: string; last4: string }>;

export type TenantEvent = TenantCreated | ApiKeyCreated;
