import type { ReferenceObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { JsonSchema } from '../openapi/document-walk';
import type { ApiVersion } from './api-versions';

/** A JSON object of a response body: a resource, a list, an event, or an event's `previous_attributes`. */
export type Fields = Readonly<Record<string, unknown>>;

/** The component schema a `$ref` names, or the schema itself. */
export type SchemaResolver = (node: JsonSchema | ReferenceObject) => JsonSchema;

/**
 * One breaking change of the changelog, undone: rewrites a resource of the newer version `from`
 * into its shape in the version just before, `to`. Pure; never mutates its input.
 */
export interface VersionTransformer {
  readonly name: string;
  readonly from: ApiVersion;
  readonly to: ApiVersion;
  /** The `object` types of the resources it rewrites. */
  readonly objects: readonly string[];
  /** Also receives an event's `previous_attributes`, which hold only the fields that changed. */
  readonly transform: (resource: Fields) => Fields;
  /** The same change in the API document: the schema of a resource of `objects`, as version `to` describes it. */
  readonly transformSchema: (schema: JsonSchema, resolve: SchemaResolver) => JsonSchema;
}

/** Plain JSON objects only: dates, buffers and streams in a body are left alone. */
export function isFields(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
