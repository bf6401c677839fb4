import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DomainError, type Clock } from '@tally/kernel';
import { CellRegistry, CLOCK, type IdempotencyStore, type StoredResponse } from '@tally/cells';
import { findContext } from '../auth/auth.guard';
import { toProblem } from '../problems/problem.filter';
import { traceIdOf } from '../request-id.middleware';
import { apiVersionOf } from '../versions/request-version';
import { BODY_MISMATCH_HEADER, IDEMPOTENCY_KEY_HEADER, keyLifetimeMs, parseIdempotencyKey } from './idempotency-key';
import { awaitClaim, WAIT_FOR_RUNNING_REQUEST } from './await-claim';
import { fingerprintOf } from './request-fingerprint';
import { isStoredFailure } from './stored-failures';

/** A claim still running after this long is taken to have died with its process, and may be taken over. */
const LOCK_MS = 60_000;

interface Target {
  store: IdempotencyStore;
  scope: string;
  key: string;
}

/**
 * `Idempotency-Key` on every POST under `/v1`: the first request with a key runs and its response
 * (status, body, ETag) is stored in the tenant's cell; a retry with the same key, scope and body
 * gets that response again, marked `Idempotent-Replayed: true` (and `Idempotent-Body-Mismatch: true`
 * when its body differs from the first one's). The scope is the tenant and
 * environment (or the operator) plus method and path, so the key on another route runs anew.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('idempotency');

  constructor(
    private readonly cells: CellRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const http = execution.switchToHttp();
    const request = http.getRequest<Request>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (request.method !== 'POST' || header === undefined) return next.handle();
    const keeper = this.keeperOf(request);
    if (!keeper) return next.handle();
    const target = { store: keeper.store, scope: `${keeper.owner} POST ${request.path}`, key: parseIdempotencyKey(header) };
    return from(this.once(request, http.getResponse<Response>(), target, next));
  }

  private async once(request: Request, response: Response, target: Target, next: CallHandler): Promise<unknown> {
    const { store, scope, key } = target;
    const fingerprint = fingerprintOf(request.body);
    const lifetimeMs = keyLifetimeMs(apiVersionOf(request));
    const claimNow = () => {
      const now = this.clock.now();
      return { scope, key, fingerprint, now, expiresAt: after(now, lifetimeMs), lockedUntil: after(now, LOCK_MS) };
    };
    const claimed = await awaitClaim(store, claimNow, WAIT_FOR_RUNNING_REQUEST);
    switch (claimed.outcome) {
      case 'new':
        return this.run(request, response, target, claimed.token, next);
      case 'completed':
        return replay(response, claimed.response, claimed.sameBody);
      case 'in_progress':
        throw DomainError.conflict('idempotency.in_progress', 'A request with this Idempotency-Key is still running; retry later with the same key');
    }
  }

  private async run(request: Request, response: Response, { store, scope, key }: Target, token: string, next: CallHandler): Promise<unknown> {
    const traceId = traceIdOf(request);
    const originalRequest = { ...(traceId !== null && { 'original-request': traceId }) };
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: null });
    } catch (error) {
      const problem = toProblem(error, traceId);
      const headers = { ...originalRequest, 'content-type': 'application/problem+json' };
      await this.record(isStoredFailure(problem) ? store.complete(scope, key, token, { status: problem.status, headers, body: problem }) : store.release(scope, key, token));
      throw error;
    }
    const etag = response.getHeader('etag');
    const headers = { ...originalRequest, ...(typeof etag === 'string' && { etag }) };
    await this.record(store.complete(scope, key, token, { status: response.statusCode, headers, body: body ?? null }));
    return body;
  }

  /**
   * The request has its answer whether or not the record was written: a failure here is logged, and
   * the key's lock lapses on its own.
   */
  private async record(write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.logger.error('Storing an idempotent response failed', (error as Error)?.stack);
    }
  }

  /** Whose keys and where they are kept: the tenant and environment in its cell, or the operator beside the directory. */
  private keeperOf(request: Request): { owner: string; store: IdempotencyStore } | undefined {
    const context = findContext(request);
    if (context) return { owner: `${context.tenantId}/${context.environment}`, store: this.cells.cell(context.region).idempotency };
    if (request.path.startsWith('/v1/operator/')) return { owner: 'operator', store: this.cells.operatorIdempotency };
    return undefined;
  }
}

/** The spec's rule: a key answers every request on its route with the first response, whatever the body; a differing body is flagged. */
function replay(response: Response, stored: StoredResponse, sameBody: boolean): unknown {
  response.status(stored.status);
  for (const [name, value] of Object.entries(stored.headers)) response.setHeader(name, value);
  response.setHeader('Idempotent-Replayed', 'true');
  if (!sameBody) response.setHeader(BODY_MISMATCH_HEADER, 'true');
  return stored.body;
}

const after = (start: Date, ms: number): Date => new Date(start.getTime() + ms);
