import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from './idempotency-key';

/**
 * The request's Idempotency-Key (lower case), or undefined without one: for a route whose
 * resource takes the key as its own (a usage event's dedupe key). The header is documented by
 * `@ApiIdempotent()`, not by this parameter.
 */
export const IdempotencyKey = createParamDecorator((_: unknown, execution: ExecutionContext): string | undefined => {
  const header = execution.switchToHttp().getRequest<Request>().headers[IDEMPOTENCY_KEY_HEADER];
  return header === undefined ? undefined : parseIdempotencyKey(header);
});
