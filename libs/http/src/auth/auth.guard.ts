import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@tally/kernel';
import { CellRegistry, TALLY_CONFIG, type RequestContext, type TallyConfig } from '@tally/cells';
import { ReadYourWrites } from '@tally/runtime';
import { API_KEYS, TENANTS, type ApiKeyEntry, type RaisedLimits, type TenantEntry } from './api-key-directory';
import { resolveApiVersion } from '../versions/request-version';
import { environmentOfKey, hashApiKey } from './api-key';
import { traceIdOf } from '../request-id.middleware';
import { ApiKeyCache } from './api-key-cache';

/** Each authenticated request's context, beside the request rather than on it. */
const CONTEXTS = new WeakMap<Request, RequestContext>();
/** The live limits the operator raised for each authenticated request's tenant, as its key's directory entry was read. */
const RAISED_LIMITS = new WeakMap<Request, RaisedLimits>();

interface ResolvedKey {
  entry: ApiKeyEntry;
  tenant: TenantEntry | undefined;
}

/**
 * Bearer auth, registered once for every route: `/v1/operator/*` takes the operator key, every
 * other `/v1` route an API key, whose hash finds the tenant, environment and region; routes outside
 * `/v1` (health, metrics, the API reference) are open.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** Only where this process learns of every directory change (the embedded profile). */
  private readonly cache: ApiKeyCache<ResolvedKey> | undefined;

  constructor(
    private readonly cells: CellRegistry,
    @Inject(TALLY_CONFIG) private readonly config: TallyConfig,
    @Optional() private readonly writes?: ReadYourWrites,
  ) {
    this.cache = cells.directoryChanges && new ApiKeyCache(cells.directoryChanges);
  }

  canActivate(execution: ExecutionContext): Promise<boolean> {
    return this.authenticate(execution.switchToHttp().getRequest<Request>());
  }

  /** Sets the request's tenant context from its key, or throws the 401; also where the edge answers a request no route took. */
  async authenticate(request: Request): Promise<boolean> {
    // Routing ignores case (`/V1/customers` reaches the same handler), so this check must too.
    const path = request.path.toLowerCase();
    if (!path.startsWith('/v1/')) return true;
    const key = bearerToken(request.headers.authorization);
    if (path.startsWith('/v1/operator/')) {
      resolveApiVersion(request, undefined);
      return this.operator(key);
    }
    if (!key) throw new DomainError('auth.missing_api_key', 'unauthenticated', 'Send your API key as Authorization: Bearer sk_…');
    const resolved = environmentOfKey(key) ? await this.resolve(hashApiKey(key)) : undefined;
    if (!resolved || resolved.entry.status !== 'active') throw new DomainError('auth.invalid_api_key', 'unauthenticated', 'The API key is not valid');
    const { entry, tenant } = resolved;
    const context: RequestContext = {
      tenantId: entry.tenant_id,
      environment: entry.environment,
      region: entry.region,
      actor: `key:${entry.key_id}`,
      requestId: traceIdOf(request),
      correlationId: traceIdOf(request),
      causationId: null,
    };
    // Set before the version is checked, so that an unknown version is answered, and counted, as the tenant's.
    CONTEXTS.set(request, context);
    RAISED_LIMITS.set(request, tenant?.rate_limits ?? {});
    resolveApiVersion(request, tenant?.api_version);
    return true;
  }

  /** A key not found may have been issued a moment ago: it is looked for again once the directory shows this process's writes. */
  private async resolve(keyHash: string): Promise<ResolvedKey | undefined> {
    const found = await this.resolveNow(keyHash);
    if (found || !this.writes) return found;
    await this.writes.awaitDirectory();
    return this.resolveNow(keyHash);
  }

  private resolveNow(keyHash: string): Promise<ResolvedKey | undefined> {
    return this.cache ? this.cache.resolve(keyHash, () => this.read(keyHash)) : this.read(keyHash);
  }

  private async read(keyHash: string): Promise<ResolvedKey | undefined> {
    const entry = await this.cells.directory.get<ApiKeyEntry>(API_KEYS, keyHash);
    return entry && { entry, tenant: await this.cells.directory.get<TenantEntry>(TENANTS, entry.tenant_id) };
  }

  private operator(key: string | undefined): boolean {
    const expected = this.config.operatorKey;
    if (!key) throw new DomainError('auth.missing_operator_key', 'unauthenticated', 'Send the operator key as Authorization: Bearer <TALLY_OPERATOR_KEY>');
    if (!expected || !sameSecret(key, expected)) throw new DomainError('auth.invalid_operator_key', 'unauthenticated', 'The operator key is not valid');
    return true;
  }
}

/** The credential of `Authorization: Bearer <token>`; the scheme's name is case-insensitive (RFC 7235). */
const bearerToken = (header: string | undefined): string | undefined => /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];

const sameSecret = (given: string, expected: string): boolean => {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
};

export function contextOf(request: Request): RequestContext {
  const context = findContext(request);
  if (!context) throw new Error('No request context: is the route under /v1 (and not /v1/operator)?');
  return context;
}

/** The request's tenant context, or undefined for routes without one (operator, health, …). */
export const findContext = (request: Request): RequestContext | undefined => CONTEXTS.get(request);

/** The raised limits of the authenticated request's tenant (none raised: empty). */
export const raisedLimitsOf = (request: Request): RaisedLimits => RAISED_LIMITS.get(request) ?? {};
