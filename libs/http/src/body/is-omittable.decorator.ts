import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but null is checked like any other value; `@IsOptional()` would let
 * null through to code that expects the field's type or nothing.
 */
export const IsOmittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
