import type { ReadStore } from '@tally/readstore';
import { TENANTS, type RateLimitGroup, type TenantEntry } from '../auth/api-key-directory';

export type RaisedLimits = Partial<Record<RateLimitGroup, number>>;

interface Cached {
  readAt: number;
  limits: Promise<RaisedLimits>;
}

/** How long a tenant's raised limits are reused before the directory is read again. */
const FRESH_FOR_MS = 1000;

/**
 * The live limits the operator raised for a tenant, from the global directory, read at most once
 * a second per tenant (by the Clock) so that a request does not cost a directory read.
 */
export class TenantRateLimits {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly directory: Pick<ReadStore, 'get'>) {}

  raisedFor(tenantId: string, now: number): Promise<RaisedLimits> {
    const cached = this.cache.get(tenantId);
    if (cached && now - cached.readAt < FRESH_FOR_MS) return cached.limits;
    const limits = this.read(tenantId);
    this.cache.set(tenantId, { readAt: now, limits });
    // A failed read is not reused: the next request asks the directory again.
    limits.catch(() => {
      if (this.cache.get(tenantId)?.limits === limits) this.cache.delete(tenantId);
    });
    return limits;
  }

  private async read(tenantId: string): Promise<RaisedLimits> {
    const tenant = await this.directory.get<TenantEntry>(TENANTS, tenantId);
    return tenant?.rate_limits ?? {};
  }
}
