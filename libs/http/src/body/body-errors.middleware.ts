import type { NextFunction, Request, Response } from 'express';
import { problemBody } from '../problems/problem';
import { traceIdOf } from '../request-id.middleware';

const BODY_ERRORS: Readonly<Record<string, [number, string, string]>> = {
  'entity.too.large': [413, 'request.too_large', 'The request body is larger than 1 MB'],
  'entity.parse.failed': [400, 'request.malformed_json', 'The request body is not valid JSON'],
  'entity.invalid_utf8': [400, 'request.invalid_body', 'The request body is not valid UTF-8'],
};

/** Turns body-parser failures (malformed JSON, oversized body, wrong charset) into problem+json. */
export function bodyErrorsMiddleware(error: { type?: string; status?: number; message?: string }, request: Request, response: Response, next: NextFunction): void {
  if (!error || typeof error.status !== 'number') return next(error);
  const [status, code, detail] = BODY_ERRORS[error.type ?? ''] ?? (error.status === 415
    ? [415, 'request.unsupported_media_type', error.message ?? 'Unsupported body encoding']
    : [400, 'request.invalid', error.message ?? 'The request body could not be read']);
  response.status(status).type('application/problem+json').json(problemBody(status, code, detail, traceIdOf(request)));
}

/** Write requests with a body must send JSON. */
export function jsonOnlyMiddleware(request: Request, response: Response, next: NextFunction): void {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (hasBody && !request.is('application/json')) {
    response
      .status(415)
      .type('application/problem+json')
      .json(problemBody(415, 'request.unsupported_media_type', 'Send request bodies as application/json', traceIdOf(request)));
    return;
  }
  next();
}
