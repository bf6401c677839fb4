/**
 * What kind of rule a DomainError breaks. The HTTP edge maps each kind to a status
 * (invalid 400, not_found 404, conflict 409, precondition 412, unprocessable 422, unavailable
 * 503), so the domain never speaks HTTP.
 */
export type ErrorKind = 'invalid' | 'not_found' | 'conflict' | 'precondition' | 'unprocessable' | 'forbidden' | 'unauthenticated' | 'rate_limited' | 'unavailable';

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** A broken rule with a stable code such as `customer.not_found` (listed in docs/errors.md). */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly kind: ErrorKind,
    message: string,
    readonly fields: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static invalid(code: string, message: string, fields: readonly FieldError[] = []): DomainError {
    return new DomainError(code, 'invalid', message, fields);
  }
  static notFound(code: string, message: string): DomainError {
    return new DomainError(code, 'not_found', message);
  }
  static conflict(code: string, message: string): DomainError {
    return new DomainError(code, 'conflict', message);
  }
  static unprocessable(code: string, message: string, fields: readonly FieldError[] = []): DomainError {
    return new DomainError(code, 'unprocessable', message, fields);
  }
}
