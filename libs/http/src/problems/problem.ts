import type { ErrorKind, FieldError } from '@tally/kernel';

export const ERRORS_BASE_URL = 'https://docs.tally.dev/errors';

/** The body of every error response (RFC 9457 problem details plus a stable `problem` code). */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  problem: string;
  detail: string;
  trace_id: string | null;
  errors?: readonly FieldError[];
}

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition: 412,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal error',
  503: 'Unavailable',
};

/** A problem met before routing (a body that cannot be read), passed on as an error so that the ProblemFilter answers it like every other. */
export class EdgeProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly errors?: readonly FieldError[],
  ) {
    super(detail);
    this.name = 'EdgeProblem';
  }
}

export function problemBody(status: number, problem: string, detail: string, traceId: string | null, errors?: readonly FieldError[]): ProblemBody {
  return {
    type: `${ERRORS_BASE_URL}/${problem}`,
    title: TITLES[status] ?? 'Error',
    status,
    problem,
    detail,
    trace_id: traceId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
