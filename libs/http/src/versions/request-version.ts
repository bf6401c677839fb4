import type { Request } from 'express';
import { DomainError } from '@tally/kernel';
import { API_VERSIONS, CURRENT_API_VERSION, isApiVersion, type ApiVersion } from './api-versions';
import { announceApiVersion } from './service-version-header';

/** The version each request is served in, beside the request rather than on it. */
const VERSIONS = new WeakMap<Request, ApiVersion>();
export const VERSION_HEADER = 'service-version';

/**
 * The version a request is served in: its `Service-Version` header, else the tenant's pinned
 * version, else the current one, announced on the response at once (so a refusal of a later check,
 * a rate limit or a route not there in this version, names it too). An unknown version answers 400.
 */
export function resolveApiVersion(request: Request, pinned: ApiVersion | undefined): ApiVersion {
  const asked = request.headers[VERSION_HEADER];
  if (asked !== undefined && (typeof asked !== 'string' || !isApiVersion(asked))) throw unknownApiVersion('Service-Version');
  const version = asked ?? pinned ?? CURRENT_API_VERSION;
  VERSIONS.set(request, version);
  if (request.res) announceApiVersion(request.res, version);
  return version;
}

/** The version resolved for this request (the current one where none was resolved, e.g. health routes). */
export const apiVersionOf = (request: Request): ApiVersion => VERSIONS.get(request) ?? CURRENT_API_VERSION;

/** 400 `api_version.unknown`, naming the header or parameter that asked for a version not in API_VERSIONS. */
export const unknownApiVersion = (field: string): DomainError =>
  DomainError.invalid('api_version.unknown', `${field} takes one of ${API_VERSIONS.join(', ')}`, [{ field, code: 'api_version.unknown', message: `one of ${API_VERSIONS.join(', ')}` }]);
