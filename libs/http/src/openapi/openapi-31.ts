import type { OpenAPIObject } from '@nestjs/swagger';

/** What a reader of the reference looks for on the field itself, so it stays beside a nullable schema's `anyOf`. */
const ANNOTATIONS = new Set(['description', 'example', 'default', 'title', 'deprecated', 'readOnly', 'writeOnly']);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object';

/**
 * Makes @nestjs/swagger's OpenAPI 3.0 document one of OpenAPI 3.1, whose schemas are JSON Schema
 * 2020-12, so that keywords such as `propertyNames` count for the tools that read it. Its only
 * 3.0 keyword, `nullable: true`, becomes a `null` type: `type: ['string', 'null']`, or an
 * `anyOf` with `{type: 'null'}` beside a reference or a choice. Changes `document` in place.
 */
export function toOpenApi31(document: OpenAPIObject): void {
  document.openapi = '3.1.0';
  convert(document as unknown as Node);
}

function convert(node: unknown): void {
  if (!isNode(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (isNode(value) && !Array.isArray(value) && value.nullable === true) node[key] = withNull(value);
    convert(node[key]);
  }
}

function withNull({ nullable: _nullable, ...schema }: Node): Node {
  if (typeof schema.type === 'string' && !schema.allOf && !schema.anyOf && !schema.oneOf) {
    // An enum a DTO wrote with its null already keeps that one null.
    return { ...schema, type: [schema.type, 'null'], ...(Array.isArray(schema.enum) && !schema.enum.includes(null) && { enum: [...schema.enum, null] }) };
  }
  const annotations = Object.fromEntries(Object.entries(schema).filter(([key]) => ANNOTATIONS.has(key)));
  const core = Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));
  // @nestjs/swagger writes a nullable reference as `{type: 'object', allOf: [{$ref}]}`.
  const reference = Array.isArray(core.allOf) && core.allOf.length === 1 && Object.keys(core).every((key) => key === 'allOf' || key === 'type') ? core.allOf[0] : core;
  return { ...annotations, anyOf: [reference, { type: 'null' }] };
}
