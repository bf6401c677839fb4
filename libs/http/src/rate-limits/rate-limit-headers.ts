import type { Response } from 'express';
import type { RateLimitDecision } from './sliding-window';

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds when the bucket is full again); `Retry-After` when refused. */
export function setRateLimitHeaders(response: Response, decision: RateLimitDecision): void {
  response.setHeader('X-RateLimit-Limit', String(decision.limit));
  response.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  response.setHeader('X-RateLimit-Reset', String(seconds(decision.resetAt)));
  if (!decision.allowed) response.setHeader('Retry-After', String(seconds(decision.retryAfter)));
}
