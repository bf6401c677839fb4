import { assertNever, DomainError, type Command, type Decider } from '@tally/kernel';
import type { ApiKeyCreated, KeyEnvironment, RateLimits, Region, TenantEvent } from './tenant.events';

export interface ApiKeyState {
  id: string;
  hash: string;
  environment: KeyEnvironment;
  status: 'active' | 'revoked';
}

export type TenantState =
  | { status: 'none' }
  | { status: 'active'; id: string; name: string; region: Region; apiVersion: string; rateLimits: RateLimits; keys: readonly ApiKeyState[] };

type Reason = { reason?: string | null };
type NewKey = Omit<ApiKeyCreated['data'], 'tenant_id' | 'rolled_from' | 'reason'>;

export type CreateTenant = Command<'CreateTenant', { tenant_id: string; name: string; region: Region; api_version: string } & Reason>;
/** `region` may be sent, but only its current value is accepted: a region is fixed for life. */
export type UpdateTenant = Command<
  'UpdateTenant',
  { tenant_id: string; name?: string; region?: string; api_version?: string; rate_limits?: RateLimits } & Reason
>;
export type CreateApiKey = Command<'CreateApiKey', { tenant_id: string; key: NewKey } & Reason>;
export type RollApiKey = Command<'RollApiKey', { tenant_id: string; key_id: string; key: Omit<NewKey, 'environment'> } & Reason>;
export type RevokeApiKey = Command<'RevokeApiKey', { tenant_id: string; key_id: string } & Reason>;
export type TenantCommand = CreateTenant | UpdateTenant | CreateApiKey | RollApiKey | RevokeApiKey;

export const REGIONS: readonly Region[] = ['us', 'eu', 'apac'];
export const RATE_LIMIT_GROUPS = ['read', 'write', 'money', 'usage', 'admin'];

type Active = Extract<TenantState, { status: 'active' }>;

const notFound = (id: string) => DomainError.notFound('tenant.not_found', `No tenant ${id}`);

export const tenantDecider: Decider<TenantState, TenantCommand, TenantEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateTenant') return state.status === 'none' ? create(command) : [];
    if (state.status === 'none') throw notFound(command.data.tenant_id);
    switch (command.type) {
      case 'UpdateTenant':
        return update(command, state);
      case 'CreateApiKey': {
        if (state.keys.some((k) => k.id === command.data.key.key_id)) return [];
        return [{ type: 'ApiKeyCreated', data: { tenant_id: state.id, ...command.data.key, reason: command.data.reason ?? null } }];
      }
      case 'RollApiKey': {
        const old = activeKey(state, command.data.key_id);
        if (state.keys.some((k) => k.id === command.data.key.key_id)) return [];
        const reason = command.data.reason ?? null;
        return [
          { type: 'ApiKeyCreated', data: { tenant_id: state.id, ...command.data.key, environment: old.environment, rolled_from: old.id, reason } },
          { type: 'ApiKeyRevoked', data: { tenant_id: state.id, key_id: old.id, key_hash: old.hash, reason } },
        ];
      }
      case 'RevokeApiKey': {
        const key = state.keys.find((k) => k.id === command.data.key_id);
        if (!key) throw DomainError.notFound('api_key.not_found', `No API key ${command.data.key_id}`);
        if (key.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { tenant_id: state.id, key_id: key.id, key_hash: key.hash, reason: command.data.reason ?? null } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'TenantCreated') {
      const { tenant_id, name, region } = event.data;
      return { status: 'active', id: tenant_id, name, region, apiVersion: '', rateLimits: {}, keys: [] };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'TenantRenamed':
        return { ...state, name: event.data.name };
      case 'TenantApiVersionPinned':
        return { ...state, apiVersion: event.data.api_version };
      case 'TenantRateLimitsSet':
        return { ...state, rateLimits: event.data.rate_limits };
      case 'ApiKeyCreated': {
        const { key_id, key_hash, environment } = event.data;
        return { ...state, keys: [...state.keys, { id: key_id, hash: key_hash, environment, status: 'active' }] };
      }
      case 'ApiKeyRevoked':
        return { ...state, keys: state.keys.map((k) => (k.id === event.data.key_id ? { ...k, status: 'revoked' } : k)) };
      default:
        return assertNever(event);
    }
  },
};

function create({ data }: CreateTenant): TenantEvent[] {
  const name = validName(data.name);
  if (!REGIONS.includes(data.region)) {
    throw DomainError.invalid('tenant.invalid_region', `The region is one of ${REGIONS.join(', ')}`, [
      { field: 'region', code: 'tenant.invalid_region', message: REGIONS.join(', ') },
    ]);
  }
  const reason = data.reason ?? null;
  return [
    { type: 'TenantCreated', data: { tenant_id: data.tenant_id, name, region: data.region, reason } },
    { type: 'TenantApiVersionPinned', data: { tenant_id: data.tenant_id, api_version: data.api_version, reason } },
  ];
}

function update({ data }: UpdateTenant, state: Active): TenantEvent[] {
  if (data.region !== undefined && data.region !== state.region) {
    throw DomainError.conflict('tenant.region_immutable', `Tenant ${state.id} lives in region ${state.region} for good; create a new tenant for another region`);
  }
  const reason = data.reason ?? null;
  const events: TenantEvent[] = [];
  const name = data.name === undefined ? undefined : validName(data.name);
  if (name !== undefined && name !== state.name) events.push({ type: 'TenantRenamed', data: { tenant_id: state.id, name, reason } });
  if (data.api_version !== undefined && data.api_version !== state.apiVersion) {
    events.push({ type: 'TenantApiVersionPinned', data: { tenant_id: state.id, api_version: data.api_version, reason } });
  }
  if (data.rate_limits !== undefined) {
    const limits = validLimits(data.rate_limits);
    if (JSON.stringify(limits) !== JSON.stringify(state.rateLimits)) events.push({ type: 'TenantRateLimitsSet', data: { tenant_id: state.id, rate_limits: limits, reason } });
  }
  return events;
}

function activeKey(state: Active, keyId: string): ApiKeyState {
  const key = state.keys.find((k) => k.id === keyId);
  if (!key) throw DomainError.notFound('api_key.not_found', `No API key ${keyId}`);
  if (key.status === 'revoked') throw DomainError.conflict('api_key.revoked', `API key ${keyId} is revoked; a revoked key cannot be rolled`);
  return key;
}

function validName(raw: string): string {
  const name = raw.trim();
  // In characters, as the body's MaxLength counts: an emoji is one.
  const length = [...name].length;
  if (length === 0 || length > 200) {
    throw DomainError.invalid('tenant.invalid_name', 'A tenant name is 1 to 200 characters', [{ field: 'name', code: 'tenant.invalid_name', message: '1 to 200 characters' }]);
  }
  return name;
}

/** The highest raised limit: far beyond any one tenant's traffic, and exact as a number and in a header. */
export const MAX_RATE_LIMIT = 1_000_000;

/** Limits in a stable key order, each a whole number of requests per second from 1 to MAX_RATE_LIMIT. */
function validLimits(limits: RateLimits): RateLimits {
  const entries = Object.entries(limits);
  const bad = entries.filter(([group, limit]) => !RATE_LIMIT_GROUPS.includes(group) || !Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_RATE_LIMIT);
  if (bad.length > 0) {
    throw DomainError.invalid(
      'tenant.invalid_rate_limits',
      `Rate limits are whole numbers from 1 to ${MAX_RATE_LIMIT} per group (${RATE_LIMIT_GROUPS.join(', ')})`,
      bad.map(([group]) => ({ field: `rate_limits.${group}`, code: 'tenant.invalid_rate_limits', message: `a whole number from 1 to ${MAX_RATE_LIMIT} for a known group` })),
    );
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
