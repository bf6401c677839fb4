import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import type { FieldError } from '@tally/kernel';
import { EdgeProblem } from '../problems/problem';

/** Far deeper than any resource; validation and idempotency fingerprints recurse, and a deep enough body would overflow the stack. */
export const MAX_BODY_DEPTH = 32;
const TOO_DEEP = { detail: `The request body is nested deeper than ${MAX_BODY_DEPTH} levels` };

/**
 * Requests whose body has no `\\u` escape. Valid UTF-8 encodes no surrogate and JSON allows no raw
 * control character in a string, so only an escape can put a NUL or a lone surrogate in one: the
 * strings of these bodies need no check.
 */
const withoutEscapes = new WeakSet<object>();

/** body-parser's `verify` hook: bytes that are not UTF-8 are refused rather than decoded into U+FFFD. */
export function verifyUtf8(request: object, _response: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) throw Object.assign(new Error('The request body is not valid UTF-8'), { type: 'entity.invalid_utf8' });
  if (!bytes.includes('\\u')) withoutEscapes.add(request);
}

/**
 * What every JSON body must be before a route sees it: an object, nested at most MAX_BODY_DEPTH
 * levels, whose keys and strings hold no NUL character and no lone surrogate (neither survives
 * storage and export intact).
 */
export function bodyShapeMiddleware(request: Request, _response: Response, next: NextFunction): void {
  const body: unknown = request.body;
  if (body === undefined) return next();
  const problem: BodyProblem | undefined =
    body === null || typeof body !== 'object' || Array.isArray(body)
      ? { detail: 'The request body must be a JSON object' }
      : withoutEscapes.has(request)
        ? depthProblem(body)
        : shapeProblem(body);
  if (!problem) return next();
  next(new EdgeProblem(400, 'request.invalid_body', problem.detail, problem.errors));
}

interface BodyProblem {
  detail: string;
  errors?: FieldError[];
}

/** A value met on the walk; its path is spelled out only for a problem. */
interface Visit {
  value: unknown;
  depth: number;
  parent?: Visit;
  key?: string;
}

/** Walks without recursion, so the check itself cannot overflow. */
function shapeProblem(body: object): BodyProblem | undefined {
  const pending: Visit[] = [{ value: body, depth: 0 }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string' && !isStorableText(value)) {
      const path = pathOf(visit);
      const message = 'strings may not contain NUL characters or unpaired surrogates';
      return { detail: `The request body holds a string that cannot be stored at ${path}`, errors: [{ field: path, code: 'field.invalid_text', message }] };
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth === MAX_BODY_DEPTH) return TOO_DEEP;
    for (const [key, child] of Object.entries(value)) {
      if (!isStorableText(key)) {
        const path = pathOf(visit);
        return { detail: `The request body holds a key that cannot be stored at ${path || 'the top level'}`, errors: [{ field: path, code: 'field.invalid_text', message: 'keys may not contain NUL characters or unpaired surrogates' }] };
      }
      pending.push({ value: child, depth: depth + 1, parent: visit, key });
    }
  }
  return undefined;
}

/** The walk of a body whose text needs no check: its objects and arrays only, for their depth. */
function depthProblem(body: object): BodyProblem | undefined {
  const pending: object[] = [body];
  const depths: number[] = [0];
  while (pending.length > 0) {
    const value = pending.pop()!;
    const depth = depths.pop()!;
    if (depth === MAX_BODY_DEPTH) return TOO_DEEP;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child === null || typeof child !== 'object') continue;
      pending.push(child);
      depths.push(depth + 1);
    }
  }
  return undefined;
}

/** `events[3].meter`: keys joined by dots, array indexes in brackets. */
function pathOf({ parent, key }: Visit): string {
  if (!parent || key === undefined) return '';
  const above = pathOf(parent);
  return Array.isArray(parent.value) ? `${above}[${key}]` : above ? `${above}.${key}` : key;
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);
