import type { NextFunction, Request, Response } from 'express';
import type { IdGenerator } from '@tally/kernel';

const TRACE = Symbol('trace');

/** Gives every request an id (`req_…`), echoed as `Request-Id` and used as the trace id in errors and logs. */
export function requestIdMiddleware(ids: IdGenerator) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const id = ids.next('req');
    (request as unknown as Record<symbol, string>)[TRACE] = id;
    response.setHeader('Request-Id', id);
    next();
  };
}

export const traceIdOf = (request: Request): string | null => (request as unknown as Record<symbol, string>)[TRACE] ?? null;
