import type { NextFunction, Request, Response } from 'express';
import type { IdGenerator } from '@tally/kernel';

/** Each request's id, beside the request rather than on it. */
const TRACE_IDS = new WeakMap<Request, string>();

/** Gives every request an id (`req_…`), echoed as `Request-Id` and used as the trace id in errors and logs. */
export function requestIdMiddleware(ids: IdGenerator) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const id = ids.next('req');
    TRACE_IDS.set(request, id);
    response.setHeader('Request-Id', id);
    next();
  };
}

export const traceIdOf = (request: Request): string | null => TRACE_IDS.get(request) ?? null;
