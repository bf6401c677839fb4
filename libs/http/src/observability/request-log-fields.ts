import type { Request } from 'express';
import { findContext } from '../auth/auth.guard';
import { traceIdOf } from '../request-id.middleware';

/**
 * What every log line about a request carries: its id (the `Request-Id` header, which error
 * bodies call `trace_id`, under both names so either finds it) and, once authenticated, the
 * tenant and environment.
 */
export function requestLogFields(request: Request): Record<string, string | null> {
  const id = traceIdOf(request);
  const context = findContext(request);
  return { request_id: id, trace_id: id, ...(context && { tenant_id: context.tenantId, environment: context.environment }) };
}

/** The path without its query string, which may hold personal data (`email[starts]=…`). */
export const pathOf = (request: Request): string => request.originalUrl.split('?')[0];
