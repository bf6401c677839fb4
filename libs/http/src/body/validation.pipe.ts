import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { DomainError, type FieldError } from '@tally/kernel';
import { isJsonObject } from './json-object';
import { escapeReservedKeys, isEscapedKey, unescapeKey } from './reserved-keys';

/** Bodies declared as these are not DTO classes and are taken as they are. */
const NOT_DTOS: readonly unknown[] = [Object, Array, String, Number, Boolean];

/**
 * Validates bodies against their DTO classes: unknown fields and wrong types are refused (no
 * coercion), and every failing field is listed with its path. Fields whose keys the user chooses
 * are `@IsKeyedObject()`, which keeps every key, `__proto__` and `constructor` included (Nest's
 * ValidationPipe deletes those from the body, so it is not used).
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return value;
    if (value === undefined) value = {};
    if (!isJsonObject(value)) throw DomainError.invalid('request.invalid_body', 'The request body must be a JSON object');
    const { metatype } = metadata;
    if (!metatype || NOT_DTOS.includes(metatype)) return value;
    const dto = plainToInstance(metatype, escapeReservedKeys(value), { enableImplicitConversion: false }) as object;
    const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } });
    const fields = errors.length > 0 ? flatten(errors) : reservedKeysLeft(dto, '');
    if (fields.length > 0) throw DomainError.invalid(problemOf(fields), 'The request body failed validation', fields);
    return dto;
  }
}

/** Reserved keys outside keyed objects (inside a free-form field such as a plan's `pricing`) are unknown fields. */
function reservedKeysLeft(value: unknown, path: string): FieldError[] {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const field = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${unescapeKey(key)}` : unescapeKey(key);
    return isEscapedKey(key) ? [{ field, code: 'field.unknown', message: `property ${unescapeKey(key)} should not exist` }] : reservedKeysLeft(inner, field);
  });
}

/**
 * `request.invalid_body`, unless every field fails one constraint that names a problem of its own
 * (`context: {problem}`, such as a timestamp out of range): then that problem.
 */
function problemOf(fields: readonly FieldError[]): string {
  const [first] = fields;
  return !first.code.startsWith('field.') && fields.every((field) => field.code === first.code) ? first.code : 'request.invalid_body';
}

function flatten(errors: readonly ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${unescapeKey(error.property)}` : unescapeKey(error.property);
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      code: (error.contexts?.[constraint] as { problem?: string } | undefined)?.problem ?? (constraint === 'whitelistValidation' ? 'field.unknown' : `field.${constraint}`),
      message: message.replace(error.property, unescapeKey(error.property)),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
