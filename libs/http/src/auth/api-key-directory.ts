import type { Environment, Region } from '@tally/cells';
import type { ApiVersion } from '../versions/api-versions';

/** The global directory's collections: just enough to route a request to its tenant's cell. */
export const API_KEYS = 'api_keys';
export const TENANTS = 'tenants';

export interface ApiKeyEntry {
  [field: string]: unknown;
  /** The key's SHA-256 hash. */
  id: string;
  key_id: string;
  tenant_id: string;
  region: Region;
  environment: Environment;
  status: 'active' | 'revoked';
  /** The key's last four characters, so people can tell their keys apart. */
  last4: string;
  created_at: string;
}

/** Rate-limit groups; see the rate-limits folder. */
export type RateLimitGroup = 'read' | 'write' | 'money' | 'usage' | 'admin';

/** The live limits per second an operator raised for a tenant, by group. */
export type RaisedLimits = Partial<Record<RateLimitGroup, number>>;

export interface TenantEntry {
  [field: string]: unknown;
  id: string;
  name: string;
  region: Region;
  created_at: string;
  /** The API version requests without a Service-Version header are served in. */
  api_version?: ApiVersion;
  /** Live limits per second the operator raised for this tenant (sandbox gets one tenth). */
  rate_limits?: RaisedLimits;
}
