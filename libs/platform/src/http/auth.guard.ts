import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@tally/kernel';
import { CellRegistry } from '../cells/cell-registry';
import type { RequestContext } from '../context/request-context';
import { API_KEYS, type ApiKeyEntry } from './api-key-directory';
import { environmentOfKey, hashApiKey } from './api-key';
import { traceIdOf } from './request-id.middleware';

const CONTEXT = Symbol('request-context');

/** Bearer auth on every `/v1` route: the key's hash finds the tenant, environment and region. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly cells: CellRegistry) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const request = execution.switchToHttp().getRequest<Request>();
    const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!key || !environmentOfKey(key)) {
      throw new DomainError('auth.missing_api_key', 'unauthenticated', 'Send your API key as Authorization: Bearer sk_…');
    }
    const entry = await this.cells.directory.get<ApiKeyEntry>(API_KEYS, hashApiKey(key));
    if (!entry || entry.status !== 'active') throw new DomainError('auth.invalid_api_key', 'unauthenticated', 'The API key is not valid');
    const context: RequestContext = {
      tenantId: entry.tenant_id,
      environment: entry.environment,
      region: entry.region,
      actor: `key:${entry.key_id}`,
      requestId: traceIdOf(request),
      correlationId: traceIdOf(request),
      causationId: null,
    };
    (request as unknown as Record<symbol, RequestContext>)[CONTEXT] = context;
    return true;
  }
}

export function contextOf(request: Request): RequestContext {
  const context = (request as unknown as Record<symbol, RequestContext>)[CONTEXT];
  if (!context) throw new Error('No request context: is the route behind ApiKeyGuard?');
  return context;
}
