import type { NextFunction, Request, Response } from 'express';
import { problemBody } from './problem';
import { traceIdOf } from './request-id.middleware';

/** Far deeper than any resource; validation and idempotency fingerprints recurse, and a deep enough body would overflow the stack. */
export const MAX_BODY_DEPTH = 32;

/** Refuses a JSON body nested deeper than MAX_BODY_DEPTH before anything walks it. */
export function bodyDepthMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (!deeperThan(request.body, MAX_BODY_DEPTH)) return next();
  response
    .status(400)
    .type('application/problem+json')
    .json(problemBody(400, 'request.invalid_body', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels`, traceIdOf(request)));
}

/** Walks without recursion, so the check itself cannot overflow. */
function deeperThan(body: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[body, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth === limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}
