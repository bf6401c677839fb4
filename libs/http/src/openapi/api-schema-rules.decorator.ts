import { ApiSchema, type ApiSchemaOptions } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Rules that relate a DTO's fields (one of two fields, a bound that depends on another field),
 * said with `allOf`, `anyOf`, `oneOf` and `not` beside the class's properties. @ApiSchema merges
 * every option but `name` into the class's schema. A rule's members name no `type`, which keeps
 * applyRequestBodyRules from closing them to other fields. An `anyOf` is written as a member of
 * `allOf`, which means the same: openapi-typescript reads an `anyOf` beside properties as a type
 * that may be either, and one in `allOf` as a type that is both.
 */
export const ApiSchemaRules = ({ anyOf, ...rules }: Pick<SchemaObject, 'allOf' | 'anyOf' | 'oneOf' | 'not'>): ClassDecorator =>
  ApiSchema((anyOf ? { ...rules, allOf: [...(rules.allOf ?? []), { anyOf }] } : rules) as ApiSchemaOptions);

/**
 * In a rule's `properties`: the field is not there (the schema `false`). Said so rather than with
 * `not: {required: [field]}`, which linters read as a required field the rule does not define;
 * a typed client reads it as a field that must not be set.
 */
export const ABSENT = false as unknown as SchemaObject;

/** A rule: at most one of `fields` is there. */
export const atMostOneOf = (...fields: string[]): Pick<SchemaObject, 'anyOf'> => ({ anyOf: fields.map((field) => ({ properties: { [field]: ABSENT } })) });
