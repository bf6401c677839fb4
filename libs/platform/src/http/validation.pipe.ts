import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type FieldError } from '@tally/kernel';

/**
 * Validates bodies against their DTO classes: unknown fields and wrong types are refused (no
 * coercion), and every failing field is listed with its path.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  private readonly pipe = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainError.invalid('request.invalid_body', 'The request body failed validation', flatten(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return value;
    if (value === undefined) value = {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw DomainError.invalid('request.invalid_body', 'The request body must be a JSON object');
    }
    return this.pipe.transform(value, metadata);
  }
}

function flatten(errors: readonly ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      code: constraint === 'whitelistValidation' ? 'field.unknown' : `field.${constraint}`,
      message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
