import { applyDecorators, Injectable, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor, type Type } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { DomainError } from '@tally/kernel';
import { isBefore, type ApiVersion } from './api-versions';
import { apiVersionOf } from './request-version';

/** The OpenAPI extension naming the version an operation exists from: the documents of older versions leave it out. */
export const SINCE_VERSION_EXTENSION = 'x-since-version';

const interceptors = new Map<ApiVersion, Type<NestInterceptor>>();

/** The interceptor that answers 404 `route.not_found` to a request served in a version before `since`, as if the route were not there. */
export function sinceApiVersionInterceptor(since: ApiVersion): Type<NestInterceptor> {
  const known = interceptors.get(since);
  if (known) return known;
  @Injectable()
  class SinceApiVersionInterceptor implements NestInterceptor {
    intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
      const version = apiVersionOf(execution.switchToHttp().getRequest<Request>());
      if (isBefore(version, since)) throw DomainError.notFound('route.not_found', `No such route in API version ${version}: it exists from ${since}`);
      return next.handle();
    }
  }
  Object.defineProperty(SinceApiVersionInterceptor, 'name', { value: `SinceApiVersion${since.replaceAll('-', '')}` });
  interceptors.set(since, SinceApiVersionInterceptor);
  return SinceApiVersionInterceptor;
}

/**
 * A controller whose routes exist from API version `since` on (wallets from 2025-10-01): older
 * versions answer 404 for them, and their OpenAPI documents do not list them. Put it above the
 * controller's other decorators, or apply it to a controller class once its routes are defined.
 */
export const SinceApiVersion = (since: ApiVersion): ClassDecorator => applyDecorators(UseInterceptors(sinceApiVersionInterceptor(since)), ApiExtension(SINCE_VERSION_EXTENSION, since));
