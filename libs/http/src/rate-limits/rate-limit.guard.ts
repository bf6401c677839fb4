import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type Clock } from '@tally/kernel';
import { CLOCK } from '@tally/cells';
import { findContext, raisedLimitsOf } from '../auth/auth.guard';
import { classifyRequest } from './classify-request';
import { setRateLimitHeaders } from './rate-limit-headers';
import { perSecondLimit, windowsFor } from './rate-limit-policy';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store';

/**
 * Takes every tenant request from its bucket (`tenant:environment:group`) right after the auth
 * guard, before any interceptor or handler, so a refused request claims no idempotency key and
 * appends nothing. The headers are set before the handler runs, so errors carry them too.
 * Requests without a tenant (operator, health) are not limited. A tenant's raised limits are
 * those of its directory entry as the auth guard read it with the key.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** Requests charged already: a request answered early (see EarlyAnswerAdmission) is charged once. */
  private readonly charged = new WeakSet<Request>();

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    if (execution.getType() !== 'http') return true;
    const http = execution.switchToHttp();
    await this.admit(http.getRequest<Request>(), http.getResponse<Response>());
    return true;
  }

  /** Charges the request's tenant once and sets the headers; throws `rate_limit.exceeded` when the bucket is empty. */
  async admit(request: Request, response: Response): Promise<void> {
    const context = findContext(request);
    if (!context || this.charged.has(request)) return;
    this.charged.add(request);
    const { group, cost } = classifyRequest(request.method, request.path, request.body);
    const now = this.clock.now().getTime();
    const perSecond = perSecondLimit(group, context.environment, raisedLimitsOf(request));
    const decision = await this.store.take(`${context.tenantId}:${context.environment}:${group}`, cost, windowsFor(perSecond), now);
    setRateLimitHeaders(response, decision);
    if (decision.allowed) return;
    throw new DomainError(
      'rate_limit.exceeded',
      'rate_limited',
      `Too many ${group} requests: this tenant's ${context.environment} limit is ${perSecond} per second, in bursts of up to ${decision.limit}; retry after the Retry-After header's seconds`,
    );
  }
}
