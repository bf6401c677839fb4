import type { OpenAPIObject, OperationObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A schema as JSON Schema (and OpenAPI 3.1) writes it: with `propertyNames` and `null` among the types, which the OpenAPI 3.0 types leave out. */
export type JsonSchema = Omit<SchemaObject, 'type'> & { type?: string | string[]; propertyNames?: JsonSchema };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document, as `METHOD /path` and the operation. */
export const operationsOf = (document: Pick<OpenAPIObject, 'paths'>): [string, OperationObject][] =>
  Object.entries(document.paths).flatMap(([path, item]) => METHODS.flatMap((method) => (item[method] ? [[`${method.toUpperCase()} ${path}`, item[method]] as [string, OperationObject]] : [])));

/** The schema itself, or the component schema a `$ref` names. */
export function resolveSchema(document: Pick<OpenAPIObject, 'components'>, node: JsonSchema | ReferenceObject | undefined): JsonSchema | undefined {
  if (!node || !('$ref' in node)) return node;
  return document.components?.schemas?.[node.$ref.replace('#/components/schemas/', '')] as JsonSchema | undefined;
}

/** The JSON schema of an operation's request body, if it takes one. */
export const requestBodyOf = (operation: OperationObject): JsonSchema | ReferenceObject | undefined => (operation.requestBody as RequestBodyObject | undefined)?.content['application/json']?.schema;

/** Every schema a request body is made of, at any depth: properties, members, items, values and keys of maps, and the component schemas they name. */
export function requestBodySchemas(document: OpenAPIObject): Set<JsonSchema> {
  const seen = new Set<JsonSchema>();
  const visit = (node: JsonSchema | ReferenceObject | undefined): void => {
    const schema = resolveSchema(document, node);
    if (!schema || seen.has(schema)) return;
    seen.add(schema);
    [
      ...Object.values(schema.properties ?? {}),
      ...(schema.allOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.anyOf ?? []),
      schema.not,
      schema.items,
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined,
      schema.propertyNames,
    ].forEach(visit);
  };
  for (const [, operation] of operationsOf(document)) visit(requestBodyOf(operation));
  return seen;
}
