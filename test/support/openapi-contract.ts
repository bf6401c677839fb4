import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Response } from 'supertest';

/** Served outside the document: the Prometheus scrape and the API reference itself. */
const UNDOCUMENTED = [/^\/metrics$/, /^\/openapi\.json$/, /^\/docs(\/|$)/, /^\/payment-actions\//];

/** What a path that no operation serves answers: no route at all, or not with this method; or, as anywhere, the tenant's rate limit. */
const NO_OPERATION = { route: { status: 404, problem: 'route.not_found' }, method: { status: 405, problem: 'route.method_not_allowed' } };
const RATE_LIMITED = { status: 429, problem: 'rate_limit.exceeded' };
/** What the edge answers for a body it cannot read, before any route is looked up: on every path, served or not. */
const UNREADABLE_BODY = [
  { status: 400, problem: 'request.malformed_json' },
  { status: 400, problem: 'request.invalid_body' },
  { status: 413, problem: 'request.too_large' },
  { status: 415, problem: 'request.unsupported_media_type' },
];

const SCHEMAS = 'openapi-schemas';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** By status, then by media type: the body's validator (compiled when first used), or null where the response has no body. */
  responses: Map<number, Map<string, () => ValidateFunction> | null>;
}

/** One route of the document, as a test can call it. */
export interface DocumentedRoute {
  method: string;
  template: string;
}

/**
 * Every response a test receives must be one the OpenAPI document promises: a documented status of
 * the matched operation, in a documented media type, with a body its schema accepts.
 */
export class OpenApiContract {
  private constructor(
    readonly document: OpenAPIObject,
    private readonly operations: Operation[],
    private readonly problem: ValidateFunction,
    private readonly compileSchema: (schema: unknown) => ValidateFunction,
  ) {}

  static compile(document: OpenAPIObject): OpenApiContract {
    // OpenAPI 3.1 schemas are JSON Schema 2020-12. A rule that relates fields (ApiSchemaRules)
    // names properties and required fields without repeating the object's type.
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    addFormats(ajv);
    ajv.addVocabulary(['example']);
    ajv.addSchema({ $id: SCHEMAS, $defs: toJsonSchema(document.components?.schemas ?? {}) } as object);
    const compile = (schema: unknown) => ajv.compile(toJsonSchema(schema) as object);
    const operations = Object.entries(document.paths).flatMap(([template, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        method: method.toUpperCase(),
        template,
        pattern: patternOf(template),
        responses: new Map(
          Object.entries(item[method]!.responses).map(([status, response]) => {
            const content = response && 'content' in response ? response.content : undefined;
            const bodies = content && new Map(Object.entries(content).map(([type, media]) => [type, once(() => compile(media.schema ?? {}))]));
            return [Number(status), bodies ?? null];
          }),
        ),
      })),
    );
    // Fewer parameters first, so a literal segment wins over a parameter that would match it too.
    operations.sort((a, b) => paramsIn(a.template) - paramsIn(b.template));
    return new OpenApiContract(document, operations, compile({ $ref: '#/components/schemas/ProblemResponse' }), compile);
  }

  /** Whether a value is one the schema (a schema of the document, `$ref`s and all) accepts: for generators of valid requests. */
  accepts(schema: unknown): (value: unknown) => boolean {
    const validate = this.compileSchema(schema);
    return (value) => validate(value) as boolean;
  }

  get routes(): DocumentedRoute[] {
    return this.operations.map(({ method, template }) => ({ method, template }));
  }

  /** Throws, naming the route, status and schema errors, when `response` breaks the document. */
  check(method: string, url: string, response: Response): void {
    const path = new URL(url, 'http://tally').pathname.replace(/(.)\/$/, '$1');
    if (UNDOCUMENTED.some((pattern) => pattern.test(path))) return;
    const request = `${method.toUpperCase()} ${url}`;
    const onPath = this.operations.filter((operation) => operation.pattern.test(path));
    const operation = onPath.find((candidate) => candidate.method === method.toUpperCase());
    if (!operation) {
      const found = onPath.length === 0 ? NO_OPERATION.route : NO_OPERATION.method;
      const expected = [RATE_LIMITED, ...UNREADABLE_BODY].find((edge) => edge.status === response.status && edge.problem === response.body?.problem) ?? found;
      const valid = this.problem(response.body);
      if (response.status !== expected.status || !valid || response.body.problem !== expected.problem) {
        throw violation(request, 'no operation', response, `expected ${expected.status} ${expected.problem}`, valid ? null : this.problem.errors);
      }
      return;
    }
    const route = `${operation.method} ${operation.template}`;
    const documented = operation.responses.get(response.status);
    if (documented === undefined) throw violation(request, route, response, `status not documented (documented: ${[...operation.responses.keys()].join(', ')})`);
    if (documented === null) {
      if (response.text) throw violation(request, route, response, 'the documented response has no body');
      return;
    }
    const mediaType = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const validate = documented.get(mediaType)?.();
    if (!validate) throw violation(request, route, response, `content type ${mediaType || 'none'} not documented (documented: ${[...documented.keys()].join(', ')})`);
    if (!validate(response.body)) throw violation(request, route, response, 'body does not match the schema', validate.errors);
  }
}

/**
 * The contract of every API version: a response is held to the document of the version that served
 * it, which its `Service-Version` header names (the newest where it has none). Each version's is
 * compiled when a response of that version is first checked. `document`, `routes` and `accepts`
 * are the newest version's.
 */
export class VersionedContracts {
  private readonly compiled = new Map<string, OpenApiContract>();

  constructor(
    private readonly documents: ReadonlyMap<string, OpenAPIObject>,
    private readonly newest: string,
  ) {}

  /** The contract of one version's document. */
  of(version: string): OpenApiContract {
    const known = this.compiled.get(version);
    if (known) return known;
    const document = this.documents.get(version);
    if (!document) throw new Error(`No OpenAPI document of version ${version}`);
    const contract = OpenApiContract.compile(document);
    this.compiled.set(version, contract);
    return contract;
  }

  get document(): OpenAPIObject {
    return this.of(this.newest).document;
  }

  get routes(): DocumentedRoute[] {
    return this.of(this.newest).routes;
  }

  accepts(schema: unknown): (value: unknown) => boolean {
    return this.of(this.newest).accepts(schema);
  }

  check(method: string, url: string, response: Response): void {
    const version = response.headers['service-version'] as string | undefined;
    this.of(version ?? this.newest).check(method, url, response);
  }
}

/** `build`'s result, built on the first call: a document's 100-odd operations compile in seconds, and a test file checks a few. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

function violation(request: string, route: string, response: Response, why: string, errors?: ErrorObject[] | null): Error {
  const details = errors ? `\n${errors.map((e) => `  ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`).join('\n')}` : '';
  return new Error(`${request} (${route}) answered ${response.status}: ${why}${details}\nbody: ${(response.text ?? '').slice(0, 800)}`);
}

/** The document's schemas as one JSON Schema: component `$ref`s point into the shared schemas. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === '$ref' ? String(value).replace('#/components/schemas/', `${SCHEMAS}#/$defs/`) : toJsonSchema(value)]),
  );
}

const patternOf = (template: string): RegExp =>
  new RegExp(`^${template.split(/\{[^}]+\}/).map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);

const paramsIn = (template: string): number => template.split('{').length - 1;
