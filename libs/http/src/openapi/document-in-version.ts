import type { OpenAPIObject } from '@nestjs/swagger';
import { CURRENT_API_VERSION, isBefore, type ApiVersion } from '../versions/api-versions';
import { SINCE_VERSION_EXTENSION } from '../versions/since-api-version';
import type { SchemaResolver, VersionTransformer } from '../versions/version-transformer';
import { transformersDownTo } from '../versions/version-transformers';
import { resolveSchema, type JsonSchema } from './document-walk';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

const SCHEMA_REF_PREFIX = '#/components/schemas/';

/**
 * The document as `version` answers, derived from the current one by the chain that downgrades
 * bodies: each breaking change down to `version` rewrites the schema of every resource of its
 * `object` types, wherever it is (a component, an item, a nested field), and the component schemas
 * that no longer serve are left out. `info.version` names the version.
 */
export function documentInVersion(current: OpenAPIObject, version: ApiVersion): OpenAPIObject {
  if (version === CURRENT_API_VERSION) return current;
  const older = transformersDownTo(version).reduce(withTransformedResources, withoutLaterOperations(current, version));
  return withoutUnusedSchemas({ ...older, info: { ...older.info, version } });
}

/** The document without the operations that exist only from a version after `version` (see SinceApiVersion), and the paths left with none. */
function withoutLaterOperations(document: OpenAPIObject, version: ApiVersion): OpenAPIObject {
  const existed = (operation: unknown) => !isNode(operation) || typeof operation[SINCE_VERSION_EXTENSION] !== 'string' || !isBefore(version, operation[SINCE_VERSION_EXTENSION] as ApiVersion);
  const paths = Object.entries(document.paths).flatMap(([path, item]) => {
    const kept = Object.fromEntries(Object.entries(item).filter(([, operation]) => existed(operation)));
    return Object.values(kept).some((operation) => isNode(operation) && 'responses' in operation) ? [[path, kept]] : [];
  });
  return { ...document, paths: Object.fromEntries(paths) };
}

/** Response schemas only: no request body has an `object` field. */
function withTransformedResources(document: OpenAPIObject, transformer: VersionTransformer): OpenAPIObject {
  const resolve: SchemaResolver = (node) => {
    const schema = resolveSchema(document, node);
    if (!schema) throw new Error(`${transformer.name}: no schema at ${'$ref' in node ? node.$ref : 'an inline node'}`);
    return schema;
  };
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isNode(value)) return value;
    const walked = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'example' || key === 'examples' ? inner : visit(inner)]));
    return isResourceOf(walked, transformer.objects) ? transformer.transformSchema(walked as JsonSchema, resolve) : walked;
  };
  return visit(document) as OpenAPIObject;
}

/** A schema whose `object` field holds one of `objects`. */
function isResourceOf(schema: Node, objects: readonly string[]): boolean {
  const object = isNode(schema.properties) ? schema.properties.object : undefined;
  const types: unknown[] = isNode(object) ? (Array.isArray(object.enum) ? object.enum : 'const' in object ? [object.const] : []) : [];
  return types.some((type) => typeof type === 'string' && objects.includes(type));
}

/** The document with only the component schemas that its paths reach, at any depth. */
function withoutUnusedSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF_PREFIX) ? inner.slice(SCHEMA_REF_PREFIX.length) : undefined;
      if (name === undefined) visit(inner);
      else if (!used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit({ ...document, components: { ...document.components, schemas: {} } });
  return { ...document, components: { ...document.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) } };
}
