import type { NextFunction, Request, Response } from 'express';
import type { JsonLog, TallyMetrics } from '@tally/observability';
import { pathOf, requestLogFields } from './request-log-fields';

/** The route label of requests no route handled (unknown paths, bodies refused before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * When a response has finished: one access-log line and the request metrics, both keyed by the
 * route template (`/v1/customers/:id`), never the raw path, which would make a label per id.
 * Neither bodies nor query strings are logged: they may hold personal data.
 */
export function httpTelemetryMiddleware(log: JsonLog, metrics: TallyMetrics) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = performance.now();
    response.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      const { method } = request;
      const route = routeTemplateOf(request);
      const status = response.statusCode;
      metrics.httpRequests.inc({ method, route, status: String(status) });
      metrics.httpDuration.observe({ method, route }, seconds);
      const fields = { ...requestLogFields(request), method, route, path: pathOf(request), status, duration_ms: Math.round(seconds * 1e6) / 1e3 };
      log.info(fields, `${method} ${route} ${status}`);
    });
    next();
  };
}

/** Express leaves the route that handled the request on it; its path is the template. */
const routeTemplateOf = (request: Request): string => {
  const path: unknown = request.route?.path;
  return typeof path === 'string' ? path : UNMATCHED_ROUTE;
};
