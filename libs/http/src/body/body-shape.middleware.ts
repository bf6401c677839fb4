import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import type { FieldError } from '@tally/kernel';
import { problemBody } from '../problems/problem';
import { traceIdOf } from '../request-id.middleware';

/** Far deeper than any resource; validation and idempotency fingerprints recurse, and a deep enough body would overflow the stack. */
export const MAX_BODY_DEPTH = 32;

/** body-parser's `verify` hook: bytes that are not UTF-8 are refused rather than decoded into U+FFFD. */
export function verifyUtf8(_request: unknown, _response: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) throw Object.assign(new Error('The request body is not valid UTF-8'), { type: 'entity.invalid_utf8' });
}

/**
 * What every JSON body must be before a route sees it: an object, nested at most MAX_BODY_DEPTH
 * levels, whose keys and strings hold no NUL character and no lone surrogate (neither survives
 * storage and export intact).
 */
export function bodyShapeMiddleware(request: Request, response: Response, next: NextFunction): void {
  const body: unknown = request.body;
  if (body === undefined) return next();
  const problem =
    body === null || typeof body !== 'object' || Array.isArray(body)
      ? { detail: 'The request body must be a JSON object' }
      : shapeProblem(body);
  if (!problem) return next();
  response
    .status(400)
    .type('application/problem+json')
    .json(problemBody(400, 'request.invalid_body', problem.detail, traceIdOf(request), problem.errors));
}

/** Walks without recursion, so the check itself cannot overflow. */
function shapeProblem(body: object): { detail: string; errors?: FieldError[] } | undefined {
  const pending: [unknown, string, number][] = [[body, '', 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path, depth] = next;
    if (typeof value === 'string' && !isStorableText(value)) {
      const message = 'strings may not contain NUL characters or unpaired surrogates';
      return { detail: `The request body holds a string that cannot be stored at ${path}`, errors: [{ field: path, code: 'field.invalid_text', message }] };
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth === MAX_BODY_DEPTH) return { detail: `The request body is nested deeper than ${MAX_BODY_DEPTH} levels` };
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return { detail: `The request body holds a key that cannot be stored at ${path || 'the top level'}`, errors: [{ field: path, code: 'field.invalid_text', message: 'keys may not contain NUL characters or unpaired surrogates' }] };
      pending.push([child, childPath, depth + 1]);
    }
  }
  return undefined;
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);
