import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@tally/kernel';
import { EdgeProblem, problemBody, STATUS_BY_KIND, type ProblemBody } from './problem';
import { traceIdOf } from '../request-id.middleware';
import type { AllowedMethods } from '../allowed-methods';
import { pathOf, requestLogFields } from '../observability/request-log-fields';

/**
 * Charges a request that may not have passed the guards (see EarlyAnswerAdmission); answers the
 * refusal that replaces its error, if any. It never rejects.
 */
export type AdmitEarlyAnswer = (request: Request, response: Response) => Promise<unknown>;

/** Every error leaves as `application/problem+json` with a stable code. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  constructor(
    private readonly allowedMethods: AllowedMethods = () => [],
    private readonly admit?: AdmitEarlyAnswer,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (!this.admit || isAuthenticationRefusal(error)) return this.answer(error, request, response);
    // Nest does not wait for a filter: the answer is written once the request is charged.
    this.admit(request, response)
      .then((refusal) => this.answer(refusal ?? error, request, response))
      .catch((failure: unknown) => this.logger.error({ message: `${request.method} ${pathOf(request)}: the error could not be answered`, ...requestLogFields(request) }, (failure as Error)?.stack));
  }

  private answer(error: unknown, request: Request, response: Response): void {
    const allowed = isRouteNotFound(error) ? this.allowedMethods(request.path) : [];
    const wrongMethod = allowed.length > 0 && !allowed.includes(request.method);
    if (wrongMethod) response.setHeader('Allow', allowed.join(', '));
    const body =
      wrongMethod
        ? problemBody(405, 'route.method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}`, traceIdOf(request))
        : toProblem(error, traceIdOf(request));
    if (body.status >= 500) {
      this.logger.error({ message: `${request.method} ${pathOf(request)} failed`, ...requestLogFields(request) }, (error as Error)?.stack);
    }
    response.status(body.status).type('application/problem+json').json(body);
  }
}

const isAuthenticationRefusal = (error: unknown): boolean => error instanceof DomainError && error.kind === 'unauthenticated';

/** Nest answers an unmatched route with its own NotFoundException; the domain never throws one. */
const isRouteNotFound = (error: unknown): boolean => error instanceof NotFoundException;

export function toProblem(error: unknown, traceId: string | null): ProblemBody {
  if (error instanceof EdgeProblem) return problemBody(error.status, error.code, error.message, traceId, error.errors);
  if (error instanceof DomainError) return problemBody(STATUS_BY_KIND[error.kind], error.code, error.message, traceId, error.fields);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return problemBody(status, HTTP_CODES[status] ?? 'request.invalid', httpDetail(error), traceId);
  }
  return problemBody(500, 'internal.error', 'Something went wrong on our side; the trace id identifies it in our logs', traceId);
}

const HTTP_CODES: Record<number, string> = {
  400: 'request.invalid',
  401: 'auth.unauthenticated',
  403: 'auth.forbidden',
  404: 'route.not_found',
  405: 'route.method_not_allowed',
  413: 'request.too_large',
  503: 'service.unavailable',
  415: 'request.unsupported_media_type',
};

function httpDetail(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? error.message);
}
