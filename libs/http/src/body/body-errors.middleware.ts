import type { NextFunction, Request, Response } from 'express';
import { EdgeProblem } from '../problems/problem';

const BODY_ERRORS: Readonly<Record<string, [number, string, string]>> = {
  'entity.too.large': [413, 'request.too_large', 'The request body is larger than 1 MB'],
  'entity.parse.failed': [400, 'request.malformed_json', 'The request body is not valid JSON'],
  'entity.invalid_utf8': [400, 'request.invalid_body', 'The request body is not valid UTF-8'],
};

/** Turns body-parser failures (malformed JSON, oversized body, wrong charset) into problems, which the ProblemFilter answers. */
export function bodyErrorsMiddleware(error: { type?: string; status?: number; message?: string }, _request: Request, _response: Response, next: NextFunction): void {
  if (!error || typeof error.status !== 'number') return next(error);
  const [status, code, detail] = BODY_ERRORS[error.type ?? ''] ?? (error.status === 415
    ? [415, 'request.unsupported_media_type', error.message ?? 'Unsupported body encoding']
    : [400, 'request.invalid', error.message ?? 'The request body could not be read']);
  next(new EdgeProblem(status, code, detail));
}

/** Write requests with a body must send JSON in UTF-8: JSON's own encoding (RFC 8259), and the only one Tally decodes. */
export function jsonOnlyMiddleware(request: Request, _response: Response, next: NextFunction): void {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return next();
  if (!request.is('application/json')) return next(new EdgeProblem(415, 'request.unsupported_media_type', 'Send request bodies as application/json'));
  const charset = charsetOf(request.headers['content-type'] ?? '');
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return next(new EdgeProblem(415, 'request.unsupported_media_type', `Send request bodies in UTF-8 (charset=utf-8, or no charset), not ${charset}`));
  }
  next();
}

/** The `charset` parameter of a Content-Type, without quotes; undefined when it names none. */
const charsetOf = (contentType: string): string | undefined => /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1];
