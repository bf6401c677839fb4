import fc from 'fast-check';
import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import { API_VERSIONS, requestBodyOf, resolveSchema } from '@tally/http';
import type { DocumentedRoute } from './openapi-contract';
import { schemaValues } from './schema-values';

export interface RandomRequest {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path and query string, ready to send. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What to fill in: real ids by path parameter name (others get random strings too), and the keys per security scheme. */
export interface RandomRequestSources {
  ids: Readonly<Record<string, readonly string[]>>;
  keys: Readonly<Record<string, string>>;
}

/** Whether a schema of the document accepts a value (OpenApiContract.accepts). */
export type Accepts = (schema: unknown) => (value: unknown) => boolean;

const ONE_MB = 1024 * 1024;

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const numberAsString = fc.oneof(fc.integer().map(String), fc.double().map(String), fc.bigInt().map(String), fc.constantFrom('1e400', '-0', '0x10', '00', ' 7 '));
const plausible = fc.constantFrom('eu', 'us', 'apac', 'live', 'sandbox', 'read', 'admin', 'eu_vat', 'DE136695976', 'a@example.com', 'DE', 'pm_1', ...API_VERSIONS);
const anyValue = fc.oneof(text, numberAsString, plausible, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));

/** Objects nested `depth` deep in one field: `{"metadata":{"a":{"a":…}}}`, or arrays `[[[…]]]`. */
const deeplyNested = fc.tuple(fc.constantFrom('metadata', 'billing_address', 'name', 'rate_limits'), fc.integer({ min: 100, max: 100_000 }), fc.boolean()).map(([field, depth, arrays]) =>
  arrays ? `{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}` : `{"${field}":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
);

/** Mostly absent, sometimes well-formed, now and then hostile: most requests get past the edge to the handlers. */
const header = (wellFormed: fc.Arbitrary<string>, hostile: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: wellFormed, weight: 3 }, { arbitrary: hostile, weight: 1 });

const contentType = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'), weight: 8 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json;',
      'application/merge-patch+json',
      'application/vnd.api+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'json',
    ),
    weight: 2,
  },
);

/** Requests to `route` with random ids, query strings, headers and bodies, from well-formed to hostile. */
export function randomRequests(document: OpenAPIObject, route: DocumentedRoute, sources: RandomRequestSources): fc.Arbitrary<RandomRequest> {
  const method = route.method.toLowerCase() as RandomRequest['method'];
  const operation = document.paths[route.template][method]!;
  const path = pathOf(route.template, sources.ids, true);
  const query = fc.array(fc.tuple(queryName(queryParameters(operation)), queryValue), { maxLength: 4 }).map(queryString);
  const body = requestBodies(document, operation);
  const writes = method !== 'get' && method !== 'delete';
  const maybeBody = fc.oneof({ arbitrary: fc.constant(undefined), weight: writes ? 1 : 5 }, { arbitrary: body, weight: writes ? 7 : 1 });
  const headers = fc.record({
    Authorization: authorization(operation, sources.keys),
    'Content-Type': contentType,
    'If-Match': header(fc.nat(5).map((n) => `W/"${n}"`), fc.oneof(fc.nat(5).map((n) => `"${n}"`), fc.constant('*'), fc.string())),
    'Idempotency-Key': header(fc.uuid(), fc.string()),
    'Service-Version': header(fc.constantFrom(...API_VERSIONS), fc.string()),
  });
  return fc.record({ path, query, headers, body: maybeBody }).map((chosen) => ({
    method,
    url: chosen.query ? `${chosen.path}?${chosen.query}` : chosen.path,
    headers: Object.fromEntries(Object.entries(chosen.headers).filter(([, value]) => value !== undefined)) as Record<string, string>,
    ...(chosen.body !== undefined && { body: chosen.body }),
  }));
}

/** The template with a value for each path parameter: a real id of that name (any real id for other names), or with `hostile` now and then any text. */
function pathOf(template: string, ids: RandomRequestSources['ids'], hostile: boolean): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
  const all = Object.values(ids).flat();
  const values = names.map((name) =>
    fc.oneof({ arbitrary: fc.constantFrom(...(ids[name] ?? all)), weight: 3 }, ...(hostile ? [{ arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), weight: 1 }] : [])),
  );
  return fc.tuple(...values).map((chosen) => names.reduce((path, name, i) => path.replace(`{${name}}`, encodeURIComponent(chosen[i])), template));
}

const queryParameters = (operation: OperationObject): string[] =>
  (operation.parameters ?? []).filter((p): p is ParameterObject => 'in' in p && p.in === 'query').map((p) => p.name);

/** Known parameters, the list parameters, `field[op]` forms, and anything else. */
const queryName = (known: string[]) =>
  fc.oneof(
    known.length > 0 ? fc.constantFrom(...known) : fc.constant('limit'),
    fc.constantFrom('limit', 'cursor', 'sort', 'as_of', 'email', 'type'),
    fc.tuple(fc.constantFrom('created_at', 'email', 'name', 'type', 'x'), fc.constantFrom('gte', 'gt', 'lte', 'lt', 'starts', 'eq', 'in', 'ne', '')).map(([field, op]) => `${field}[${op}]`),
    fc.string({ maxLength: 12 }),
  );

const queryValue = fc.oneof(
  text,
  numberAsString,
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('created_at:asc', 'email:desc', 'name:asc', 'created_at', '', 'a,b,c', '2026-05-01', 'eyJzIjoiY3JlYXRlZF9hdDpkZXNjIn0'),
);

const queryString = (pairs: [string, string][]): string => pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');

function authorization(operation: OperationObject, keys: RandomRequestSources['keys']): fc.Arbitrary<string | undefined> {
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  return fc.oneof(
    { arbitrary: fc.constant(`Bearer ${scheme ? keys[scheme] : ''}`), weight: 8 },
    { arbitrary: fc.constantFrom(...Object.values(keys)).map((key) => `Bearer ${key}`), weight: 1 },
    { arbitrary: fc.oneof(fc.string().map((key) => `Bearer ${key}`), fc.string()), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** Mostly bodies of the operation's schema, some with one field wrong or unknown; also JSON of any shape, text that is not JSON, deep nesting, more than 1 MB. */
function requestBodies(document: OpenAPIObject, operation: OperationObject): fc.Arbitrary<string> {
  const shaped = schemaValues(document, requestBodyOf(operation));
  const fields = Object.keys(resolveSchema(document, requestBodyOf(operation))?.properties ?? {});
  const field = fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })) : fc.string({ maxLength: 10 });
  const oneFieldOff = fc.tuple(shaped, field, anyValue).map(([body, field, value]) =>
    body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body, [field]: value } : body,
  );
  return fc.oneof(
    { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)), weight: 4 },
    { arbitrary: shaped.map((value) => JSON.stringify(value)), weight: 8 },
    { arbitrary: oneFieldOff.map((value) => JSON.stringify(value)), weight: 4 },
    { arbitrary: text, weight: 2 },
    { arbitrary: deeplyNested, weight: 1 },
    { arbitrary: fc.constant(JSON.stringify({ name: 'x'.repeat(ONE_MB) })), weight: 1 },
  );
}

/**
 * Requests to `route` that the document allows in every part: the path with real ids, query
 * parameters, headers and a body of their schemas (checked with `accepts`, which also holds the
 * rules that relate fields), the route's key and JSON.
 */
export function validRequests(document: OpenAPIObject, route: DocumentedRoute, sources: RandomRequestSources, accepts: Accepts): fc.Arbitrary<RandomRequest> {
  const method = route.method.toLowerCase() as RandomRequest['method'];
  const operation = document.paths[route.template][method]!;
  const path = pathOf(route.template, sources.ids, false);
  const parameters = (where: 'query' | 'header') => (operation.parameters ?? []).filter((p): p is ParameterObject => 'in' in p && p.in === where);
  const values = (list: ParameterObject[]) =>
    fc.record(Object.fromEntries(list.map((p) => [p.name, schemaValues(document, p.schema).filter(accepts(p.schema)).map(String)])), { requiredKeys: list.filter((p) => p.required).map((p) => p.name) });
  const schema = requestBodyOf(operation);
  const body = schema ? schemaValues(document, schema).filter(accepts(schema)) : fc.constant(undefined);
  const required = (operation.requestBody as { required?: boolean } | undefined)?.required ?? false;
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  return fc
    .record({ path, query: values(parameters('query')), headers: values(parameters('header')), body: required ? body : fc.option(body, { nil: undefined }) })
    .map((chosen) => ({
      method,
      url: Object.keys(chosen.query).length > 0 ? `${chosen.path}?${queryString(Object.entries(chosen.query) as [string, string][])}` : chosen.path,
      headers: { ...(chosen.headers as Record<string, string>), 'Content-Type': 'application/json', ...(scheme && { Authorization: `Bearer ${sources.keys[scheme]}` }) },
      ...(chosen.body !== undefined && { body: JSON.stringify(chosen.body) }),
    }));
}
