import type { ReferenceObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { JsonSchema } from '../openapi/document-walk';
import type { SchemaResolver } from './version-transformer';

// Pure edits of an object's schema, of which a transformer's transformSchema is made. Each returns a new schema.

type Property = JsonSchema | ReferenceObject;

/** The schema with its property `name` replaced by `edit` of it; a schema without that property, as it is. */
export function editProperty(schema: JsonSchema, name: string, edit: (property: Property) => Property): JsonSchema {
  const property = schema.properties?.[name];
  if (!property) return schema;
  return { ...schema, properties: { ...schema.properties, [name]: edit(property) } as JsonSchema['properties'] };
}

/** The schema with its property `from` named `to`, in the same place among the properties and the required fields. */
export function renameProperty(schema: JsonSchema, from: string, to: string): JsonSchema {
  if (!schema.properties?.[from]) return schema;
  const rename = (name: string) => (name === from ? to : name);
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [rename(name), property]));
  return { ...schema, properties, ...(schema.required && { required: schema.required.map(rename) }) };
}

/** The schema with `name` no longer required: the field may be left out. */
export const optionalProperty = (schema: JsonSchema, name: string): JsonSchema => ({ ...schema, ...(schema.required && { required: schema.required.filter((field) => field !== name) }) });

/**
 * `edit` applied to every object a property's value may be: the property's own schema, the one its
 * `$ref` names (copied in place, so the component stays as other schemas use it), and the members of
 * its `anyOf` and `oneOf` (a nullable object is `anyOf: [object, null]`).
 */
export function editObjects(node: Property, resolve: SchemaResolver, edit: (object: JsonSchema) => JsonSchema): Property {
  if ('$ref' in node) return edit(resolve(node));
  const members = (list: Property[] | undefined) => list?.map((member) => editObjects(member, resolve, edit)) as JsonSchema['anyOf'];
  if (node.anyOf || node.oneOf) return { ...node, ...(node.anyOf && { anyOf: members(node.anyOf) }), ...(node.oneOf && { oneOf: members(node.oneOf) }) };
  return [node.type ?? []].flat().includes('object') ? edit(node) : node;
}
