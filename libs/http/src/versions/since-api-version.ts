import { applyDecorators, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError } from '@tally/kernel';
import { isBefore, type ApiVersion } from './api-versions';
import { apiVersionOf } from './request-version';

/** The OpenAPI extension naming the version an operation exists from: the documents of older versions leave it out. */
export const SINCE_VERSION_EXTENSION = 'x-since-version';
const SINCE_VERSION = 'tally:since-api-version';

/**
 * A controller whose routes exist from API version `since` on (wallets from 2025-10-01): older
 * versions answer 404 for them, and their OpenAPI documents do not list them. Put it above the
 * controller's other decorators, or apply it to a controller class once its routes are defined.
 */
export const SinceApiVersion = (since: ApiVersion): ClassDecorator => applyDecorators(SetMetadata(SINCE_VERSION, since), ApiExtension(SINCE_VERSION_EXTENSION, since));

/**
 * Answers 404 `route.not_found` to a request served in a version before its route's `since`, as if
 * the route were not there: right after the key is known (it pins the version), before any other
 * check of the request (rate limit, query parameters, idempotency key, body) could answer otherwise.
 */
@Injectable()
export class SinceApiVersionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(execution: ExecutionContext): boolean {
    const since = this.reflector.getAllAndOverride<ApiVersion | undefined>(SINCE_VERSION, [execution.getHandler(), execution.getClass()]);
    if (since === undefined) return true;
    const version = apiVersionOf(execution.switchToHttp().getRequest<Request>());
    if (isBefore(version, since)) throw DomainError.notFound('route.not_found', `No such route in API version ${version}: it exists from ${since}`);
    return true;
  }
}
