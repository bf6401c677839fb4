import type { NextFunction, Request, Response } from 'express';
import { CURRENT_API_VERSION, type ApiVersion } from './api-versions';

/** Tells the client which version served the response. */
export function announceApiVersion(response: Response, version: ApiVersion): void {
  response.setHeader('Service-Version', version);
}

/**
 * Announces the current version up front, so responses written before the request's own version
 * is known (body errors, failed auth, unknown routes, an unknown version) carry the header too;
 * it is replaced as soon as auth resolves the version (resolveApiVersion).
 */
export function serviceVersionHeaderMiddleware(_request: Request, response: Response, next: NextFunction): void {
  announceApiVersion(response, CURRENT_API_VERSION);
  next();
}
