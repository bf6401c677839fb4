import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type Clock } from '@tally/kernel';
import { CLOCK } from '@tally/cells';
import { findContext } from '../auth/auth.guard';
import { classifyRequest } from './classify-request';
import { setRateLimitHeaders } from './rate-limit-headers';
import { perSecondLimit, windowsFor } from './rate-limit-policy';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store';
import { TenantRateLimits } from './tenant-rate-limits';

/**
 * Takes every tenant request from its bucket (`tenant:environment:group`) right after the auth
 * guard, before any interceptor or handler, so a refused request claims no idempotency key and
 * appends nothing. The headers are set before the handler runs, so errors carry them too.
 * Requests without a tenant (operator, health) are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly tenantLimits: TenantRateLimits,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const http = execution.switchToHttp();
    const request = http.getRequest<Request>();
    const context = execution.getType() === 'http' ? findContext(request) : undefined;
    if (!context) return true;
    const { group, cost } = classifyRequest(request.method, request.path, request.body);
    const now = this.clock.now().getTime();
    const perSecond = perSecondLimit(group, context.environment, await this.tenantLimits.raisedFor(context.tenantId, now));
    const decision = await this.store.take(`${context.tenantId}:${context.environment}:${group}`, cost, windowsFor(perSecond), now);
    setRateLimitHeaders(http.getResponse<Response>(), decision);
    if (decision.allowed) return true;
    throw new DomainError(
      'rate_limit.exceeded',
      'rate_limited',
      `Too many ${group} requests: this tenant's ${context.environment} limit is ${perSecond} per second, in bursts of up to ${decision.limit}; retry after the Retry-After header's seconds`,
    );
  }
}
