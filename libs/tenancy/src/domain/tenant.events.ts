import type { Event } from '@tally/kernel';

export type Region = 'us' | 'eu' | 'apac';
export type KeyEnvironment = 'live' | 'sandbox';
export type RateLimits = Readonly<Partial<Record<'read' | 'write' | 'money' | 'usage' | 'admin', number>>>;

/** Operator actions say why (`reason`); the audit log keeps it. */
interface Audited {
  reason?: string | null;
}

export type TenantCreated = Event<'TenantCreated', { tenant_id: string; name: string; region: Region } & Audited>;

export type TenantRenamed = Event<'TenantRenamed', { tenant_id: string; name: string } & Audited>;

/** Requests without a Service-Version header are served in this version. */
export type TenantApiVersionPinned = Event<'TenantApiVersionPinned', { tenant_id: string; api_version: string } & Audited>;

/** Live per-second limits by group; sandbox gets one tenth. */
export type TenantRateLimitsSet = Event<'TenantRateLimitsSet', { tenant_id: string; rate_limits: RateLimits } & Audited>;

/** Only the key's hash is stored; the key itself is shown once, to whoever created it. */
export type ApiKeyCreated = Event<
  'ApiKeyCreated',
  { tenant_id: string; key_id: string; environment: KeyEnvironment; key_hash: string; last4: string; rolled_from?: string } & Audited
>;

export type ApiKeyRevoked = Event<'ApiKeyRevoked', { tenant_id: string; key_id: string; key_hash: string } & Audited>;

export type TenantEvent = TenantCreated | TenantRenamed | TenantApiVersionPinned | TenantRateLimitsSet | ApiKeyCreated | ApiKeyRevoked;
