import type { OpenAPIObject, ReferenceObject, RequestBodyObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf, requestBodyOf, requestBodySchemas, resolveSchema, type JsonSchema } from './document-walk';

/** A string without a NUL character, which bodyShapeMiddleware refuses in every string and key of a body. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/**
 * Says in the schemas of the request bodies what the edge refuses in every body, rather than on
 * each DTO: a field the schema does not name (BodyValidationPipe; a keyed map, `@IsKeyedObject()`,
 * keeps its schema of values), a NUL character in a string or a key (bodyShapeMiddleware; a
 * pattern, format or enum already rules it out), and, since a missing body is read as `{}`, a
 * missing body only where a field is required (or one of several is, as `oneOf` requires). Changes
 * `document` in place.
 */
export function applyRequestBodyRules(document: OpenAPIObject): void {
  for (const schema of requestBodySchemas(document)) {
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    if (typeof schema.additionalProperties === 'object' && !schema.propertyNames) schema.propertyNames = { type: 'string', pattern: NO_NUL_PATTERN };
    if (schema.type === 'string' && !schema.pattern && !schema.format && !schema.enum) schema.pattern = NO_NUL_PATTERN;
  }
  for (const [, operation] of operationsOf(document)) {
    const schema = requestBodyOf(operation);
    if (schema) (operation.requestBody as RequestBodyObject).required = requiresAField(resolveSchema(document, schema));
  }
}

/** Whether `{}` lacks a field the schema requires: one of its own, or one in every branch of a `oneOf` or `anyOf`. */
function requiresAField(schema: JsonSchema | undefined): boolean {
  const requires = (branch: JsonSchema | ReferenceObject): boolean => ('required' in branch ? (branch.required?.length ?? 0) > 0 : false);
  if (!schema) return false;
  return requires(schema) || [schema.oneOf, schema.anyOf].some((branches) => branches !== undefined && branches.length > 0 && branches.every(requires));
}
