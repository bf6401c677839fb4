import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { CURRENT_API_VERSION } from './api-versions';
import { downgrade } from './downgrade';
import { apiVersionOf } from './request-version';

/** Serves each request in its version (named in `Service-Version` since auth resolved it): a successful body of an older version is downgraded. */
@Injectable()
export class ApiVersionInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const version = apiVersionOf(execution.switchToHttp().getRequest<Request>());
    if (version === CURRENT_API_VERSION) return next.handle();
    return next.handle().pipe(map((body: unknown) => downgrade(body, version)));
  }
}
