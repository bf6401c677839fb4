import type { Environment, Region } from '../context/request-context';

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
}

export interface TenantEntry {
  [field: string]: unknown;
  id: string;
  name: string;
  region: Region;
  created_at: string;
}
