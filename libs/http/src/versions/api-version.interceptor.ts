import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { CURRENT_API_VERSION } from './api-versions';
import { downgrade } from './downgrade';
import { apiVersionOf } from './request-version';
import { announceApiVersion } from './service-version-header';

/**
 * Serves each request in its version: the `Service-Version` response header is set before the
 * handler runs (so errors carry it too), and a successful body of an older version is downgraded.
 */
@Injectable()
export class ApiVersionInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const http = execution.switchToHttp();
    const version = apiVersionOf(http.getRequest<Request>());
    announceApiVersion(http.getResponse<Response>(), version);
    if (version === CURRENT_API_VERSION) return next.handle();
    return next.handle().pipe(map((body: unknown) => downgrade(body, version)));
  }
}
