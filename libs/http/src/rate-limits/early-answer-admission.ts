import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@tally/kernel';
import { AuthGuard, findContext } from '../auth/auth.guard';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Errors answered before the guards ran (a route that does not exist or takes another method, a
 * body that cannot be read) still pass authentication and the rate limit, so that every answer
 * to a tenant carries its `X-RateLimit-*` headers and counts in the group of its method and path.
 * A request without a valid key keeps its early answer, uncounted.
 */
@Injectable()
export class EarlyAnswerAdmission {
  constructor(
    private readonly auth: AuthGuard,
    private readonly limits: RateLimitGuard,
  ) {}

  /** Charges the request's tenant; answers the 429 that replaces the early answer when the bucket is empty. */
  async refusalOf(request: Request, response: Response): Promise<DomainError | undefined> {
    try {
      if (!findContext(request)) await this.auth.authenticate(request);
    } catch {
      // No tenant, or a bad Service-Version after the tenant was found: the early answer stands.
    }
    try {
      await this.limits.admit(request, response);
      return undefined;
    } catch (refusal) {
      // A store that fails leaves the early answer without headers rather than turning it into a 5xx.
      return refusal instanceof DomainError ? refusal : undefined;
    }
  }
}
