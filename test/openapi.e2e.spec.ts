import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import type { Response } from 'supertest';
import { API_SECTIONS, API_VERSIONS, CURRENT_API_VERSION, operationsOf, requestBodySchemas, SINCE_VERSION_EXTENSION, type JsonSchema } from '@tally/http';
import type { ApiSection } from '@tally/runtime';
import { TallyUnderTest } from './support/tally';

/** The Express routes Nest registered for controllers, as `METHOD /path/{param}`. */
function servedRoutes(tally: TallyUnderTest): string[] {
  const stack = (tally.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
  return stack.flatMap(({ route }) =>
    route ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`) : [],
  );
}

/** Every schema of the document, at any depth, with where it is. */
function schemasIn(node: unknown, path = ''): [string, JsonSchema][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => schemasIn(item, `${path}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  const own: [string, JsonSchema][] = ['type', 'allOf', 'oneOf', 'anyOf', 'properties', 'pattern'].some((keyword) => keyword in node) ? [[path, node as JsonSchema]] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => (key === 'example' || key === 'examples' ? [] : schemasIn(value, `${path}/${key}`)))];
}

/** Every `example` of the document, with where it is. */
function examplesIn(node: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => examplesIn(item, `${path}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === 'example' ? [[`${path}/example`, value] as [string, unknown]] : examplesIn(value, `${path}/${key}`)));
}

const typesOf = (schema: JsonSchema): string[] => [schema.type ?? []].flat();
const isScalar = (schema: JsonSchema): boolean => typesOf(schema).some((type) => ['string', 'integer', 'number', 'boolean'].includes(type));

const response = (status: number, contentType: string, body: unknown): Response =>
  ({ status, headers: { 'content-type': contentType }, body, text: JSON.stringify(body) }) as unknown as Response;

const problem = (status: number, code: string) => ({
  type: `https://docs.tally.dev/errors/${code}`,
  title: 'Error',
  status,
  problem: code,
  detail: 'detail',
  trace_id: 'req_1',
});

describe('the OpenAPI document and the API reference', () => {
  let tally: TallyUnderTest;
  let document: OpenAPIObject;

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    document = (await tally.http().get('/openapi.json').expect(200)).body;
  });

  afterAll(() => tally.stop());

  it('documents every route the controllers serve, except the metrics scrape and the browser pages', () => {
    const reference = /^GET \/(docs|openapi\.json)/;
    const browserPage = /^(GET|POST) \/payment-actions\//;
    const served = servedRoutes(tally).filter((route) => !reference.test(route) && !browserPage.test(route) && route !== 'GET /metrics');
    expect(operationsOf(document).map(([route]) => route).sort()).toEqual([...new Set(served)].sort());
  });

  it('documents each parameter of a route’s path, as a required string', () => {
    const undocumented = operationsOf(document).flatMap(([route, operation]) =>
      [...route.matchAll(/\{([^}]+)\}/g)]
        .map(([, name]) => name)
        .filter((name) => !operation.parameters?.some((p) => 'in' in p && p.in === 'path' && p.name === name && p.required && (p.schema as JsonSchema | undefined)?.type === 'string'))
        .map((name) => `${route} {${name}}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('gives every operation a JSON success body (a PDF for signed PDF links) and its errors as problem+json, with the edge’s, the key’s and the idempotency key’s problems', () => {
    for (const [route, operation] of operationsOf(document)) {
      const statuses = Object.keys(operation.responses).map(Number);
      const success = Object.entries(operation.responses).filter(([status]) => Number(status) < 300) as [string, ResponseObject][];
      // The exceptions: the PDFs, an invoice's and a credit note's, by their signed links.
      const media = route === 'GET /invoice-pdfs/{invoice_id}' || route === 'GET /credit-note-pdfs/{credit_note_id}' ? 'application/pdf' : 'application/json';
      expect([route, success.map(([, r]) => Object.keys(r.content ?? {}))]).toEqual([route, [[media]]]);
      for (const [status, answer] of Object.entries(operation.responses) as [string, ResponseObject][]) {
        if (Number(status) >= 400) expect([route, status, Object.keys(answer.content ?? {})]).toEqual([route, status, ['application/problem+json']]);
      }
      const required = [400, 413, 415, 500, ...(route.includes(' /v1/') ? [401] : []), ...(route.startsWith('POST /v1/') ? [409] : [])];
      expect([route, required.filter((status) => !statuses.includes(status))]).toEqual([route, []]);
      // Routes outside /v1 take no key, and say so.
      const security = route.includes(' /v1/') ? [{ [route.includes('/v1/operator/') ? 'operator_key' : 'api_key']: [] }] : [];
      expect([route, operation.security]).toEqual([route, security]);
      if (route.startsWith('POST /v1/')) expect([route, operation.parameters?.some((p) => 'name' in p && p.name === 'Idempotency-Key')]).toEqual([route, true]);
    }
  });

  describe('as the reference a new user reads', () => {
    it('gives every operation a summary and a description', () => {
      const lacking = operationsOf(document).filter(([, operation]) => !operation.summary?.trim() || !operation.description?.trim());
      expect(lacking.map(([route]) => route)).toEqual([]);
    });

    it('files every operation under one section, and lists the sections and the paths in the order of the reference', () => {
      const order = tally.app.get<readonly ApiSection[]>(API_SECTIONS).map((section) => section.name);
      expect(order).toEqual(['customers', 'plans', 'coupons', 'subscriptions', 'tax', 'invoices', 'payment methods', 'payments', 'refunds', 'wallets', 'usage', 'events', 'reports', 'webhooks', 'test clocks', 'admin', 'operator', 'health']);
      expect(document.tags?.map((tag) => tag.name)).toEqual(order);
      expect(document.tags?.filter((tag) => !tag.description)).toEqual([]);
      const sections = operationsOf(document).map(([route, operation]) => [route, operation.tags] as const);
      expect(sections.filter(([, tags]) => tags?.length !== 1 || !order.includes(tags[0] as (typeof order)[number]))).toEqual([]);
      const ranks = sections.map(([, tags]) => order.indexOf(tags![0] as (typeof order)[number]));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    });

    it('declares no section of the reference without a route', () => {
      const filed = new Set(operationsOf(document).map(([, operation]) => operation.tags?.[0]));
      expect(document.tags?.map((tag) => tag.name).filter((name) => !filed.has(name))).toEqual([]);
    });

    it('closes every object of a request body to unknown fields, except the maps whose keys the user chooses, which say what a key is', () => {
      const schemas = [...requestBodySchemas(document)];
      const objects = schemas.filter((schema) => typesOf(schema).includes('object'));
      expect(objects.length).toBeGreaterThan(20);
      const open = objects.filter((schema) => schema.additionalProperties !== false && !(typeof schema.additionalProperties === 'object' && schema.propertyNames));
      expect(open).toEqual([]);
    });

    it('refuses a NUL character in every string of a request body by a pattern, a format or an enum', () => {
      const strings = [...requestBodySchemas(document)].filter((schema) => typesOf(schema).includes('string'));
      expect(strings.filter((schema) => !schema.pattern && !schema.format && !schema.enum)).toEqual([]);
      const patterns = strings.filter((schema) => schema.pattern).map((schema) => new RegExp(schema.pattern!, 'u'));
      expect(patterns.filter((pattern) => pattern.test('\u0000') || pattern.test('a\u0000') || pattern.test('\u0000a'))).toEqual([]);
    });

    it('writes every pattern with what all regex dialects read alike: [0-9] rather than \\d, which in some matches any script’s digits', () => {
      const patterns = schemasIn(document).flatMap(([where, schema]) => (schema.pattern ? [[where, schema.pattern] as const] : []));
      expect(patterns.length).toBeGreaterThan(20);
      expect(patterns.filter(([, pattern]) => /\\[dDwWsSb]/.test(pattern))).toEqual([]);
    });

    it('says what a missing body is: required only where a field is, which `{}` (what a missing body is read as) lacks', () => {
      for (const [route, operation] of operationsOf(document)) {
        const body = operation.requestBody as { required?: boolean; content: Record<string, { schema: { $ref: string } }> } | undefined;
        if (!body) continue;
        expect([route, body.required]).toEqual([route, !tally.contract.accepts(body.content['application/json'].schema)({})]);
      }
    });

    it('shows realistic examples: every field of a request body has one, and every map has its own rather than additionalProp1', () => {
      const bodies = [...requestBodySchemas(document)];
      const fields = bodies.flatMap((schema) => Object.entries(schema.properties ?? {}).map(([name, field]) => [name, field as JsonSchema] as const));
      expect(fields.filter(([, field]) => isScalar(field) && field.example === undefined && !field.enum).map(([name]) => name)).toEqual([]);
      const maps = schemasIn(document).filter(([, schema]) => typesOf(schema).includes('object') && schema.additionalProperties !== undefined && schema.additionalProperties !== false);
      expect(maps.length).toBeGreaterThan(5);
      expect(maps.filter(([, schema]) => schema.example === undefined).map(([where]) => where)).toEqual([]);
      expect(examplesIn(document).filter(([, example]) => JSON.stringify(example ?? null).includes('additionalProp'))).toEqual([]);
    });

    it('states the format of every list parameter: a bounded limit, a non-empty cursor, the sorts, and dates for time filters', () => {
      const lists = operationsOf(document).filter(([, operation]) => operation.parameters?.some((p) => 'name' in p && p.name === 'cursor'));
      expect(lists.length).toBeGreaterThan(5);
      for (const [route, operation] of lists) {
        const parameter = (name: string) => (operation.parameters ?? []).find((p) => 'name' in p && p.name === name) as { schema: JsonSchema } | undefined;
        // A recognition schedule's rows are a document's, in pages of up to 1,000 (docs/decisions.md).
        const maximum = route === 'GET /v1/invoices/{id}/recognition-schedule' ? 1000 : 100;
        expect([route, parameter('limit')?.schema]).toEqual([route, expect.objectContaining({ type: 'integer', minimum: 1, maximum })]);
        expect([route, parameter('cursor')?.schema]).toEqual([route, expect.objectContaining({ type: 'string', minLength: 1, pattern: expect.any(String) })]);
        const sort = parameter('sort')?.schema;
        if (sort) expect([route, sort.enum?.every((value: string) => /^[a-z_]+:(asc|desc)$/.test(value))]).toEqual([route, true]);
        const times = (operation.parameters ?? []).filter((p) => 'name' in p && /_at\[/.test(p.name)) as { name: string; schema: JsonSchema }[];
        for (const time of times) expect([route, time.name, time.schema.anyOf?.map((s) => (s as JsonSchema).format)]).toEqual([route, time.name, ['date', 'date-time']]);
      }
    });
  });

  describe('one document per API version', () => {
    it('serves the newest without a version, and the version asked for by ?version= or by Service-Version, named in Service-Version', async () => {
      const newest = await tally.http().get('/openapi.json').expect(200);
      expect([newest.headers['service-version'], document.info.version]).toEqual([CURRENT_API_VERSION, CURRENT_API_VERSION]);
      const texts = new Map<string, string>();
      for (const version of API_VERSIONS) {
        const asked = await tally.http().get(`/openapi.json?version=${version}`).expect(200).expect('Content-Type', /^application\/json/);
        expect([asked.headers['service-version'], asked.body.info.version]).toEqual([version, version]);
        texts.set(version, asked.text);
      }
      expect(new Set(texts.values()).size).toBe(API_VERSIONS.length);
      expect(newest.text === texts.get(CURRENT_API_VERSION)).toBe(true);
      const byHeader = await tally.http().get('/openapi.json').set('Service-Version', API_VERSIONS[0]).expect(200);
      expect(byHeader.headers['service-version']).toBe(API_VERSIONS[0]);
      expect(byHeader.text === texts.get(API_VERSIONS[0])).toBe(true);
    });

    it.each([
      ['an unknown version', '/openapi.json?version=2023-01-01', {}, 'api_version.unknown', 'version'],
      ['a version given twice', '/openapi.json?version=2024-10-01&version=2025-04-01', {}, 'api_version.unknown', 'version'],
      ['an unknown Service-Version', '/openapi.json', { 'Service-Version': '2023-01-01' }, 'api_version.unknown', 'Service-Version'],
      ['another parameter', '/openapi.json?format=yaml', {}, 'request.invalid_parameter', 'format'],
    ])('refuses %s with a problem', async (_case, url, headers, code, field) => {
      const refused = await tally.http().get(url).set(headers).expect(400).expect('Content-Type', /^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 400, problem: code, errors: [{ field, code }] });
    });

    it('derives an older version’s document from the newest by the version chain: the resources it rewrites change, the routes of later versions leave, nothing else', async () => {
      const oldest = (await tally.http().get(`/openapi.json?version=${API_VERSIONS[0]}`).expect(200)).body as OpenAPIObject;
      // Wallets exist from 2025-10-01: their operations, and the schemas only they use, are not in the oldest document.
      const later = (operation: unknown) => (operation as Record<string, unknown>)[SINCE_VERSION_EXTENSION] !== undefined;
      const kept = Object.entries(document.paths).flatMap(([path, item]) => {
        const operations = Object.entries(item).filter(([, operation]) => !later(operation));
        return operations.length > 0 ? [[path, Object.fromEntries(operations)] as const] : [];
      });
      expect(JSON.stringify(oldest.paths) === JSON.stringify(Object.fromEntries(kept))).toBe(true);
      expect(Object.keys(document.paths).filter((path) => !(path in oldest.paths)).sort()).toEqual(
        ['/v1/customers/{id}/credit-grants', '/v1/customers/{id}/wallets', '/v1/wallets', '/v1/wallets/{id}', '/v1/wallets/{id}/credits', '/v1/wallets/{id}/debits', '/v1/wallets/{id}/transactions'].sort(),
      );
      const ofWalletsOnly = (name: string) => /PrepaidWallet|WalletTransaction|WalletSource|WalletDto|AutoTopUp|TopUpError|CreditGrant/.test(name);
      expect(Object.keys(oldest.components!.schemas!).filter(ofWalletsOnly)).toEqual([]);
      const changed = Object.keys(document.components!.schemas!)
        .filter((name) => !ofWalletsOnly(name))
        .filter((name) => JSON.stringify(document.components!.schemas![name]) !== JSON.stringify(oldest.components!.schemas![name]));
      expect(changed).toEqual(['InvoiceResponse', 'PaymentErrorResponse', 'PaymentResponse']);
      expect(oldest.components!.schemas!.PaymentErrorResponse).toBeUndefined();
      expect(oldest.components!.schemas!.InvoiceResponse).toMatchObject({ properties: { payments: { type: ['string', 'null'] } } });
      expect((oldest.components!.schemas!.InvoiceResponse as JsonSchema).required).not.toContain('tax');
    });
  });

  it('renders the reference at /docs, whose scripts and styles load without a key', async () => {
    const page = await tally.http().get('/docs').expect(200).expect('Content-Type', /text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)=["']\.\/docs\/([^"']+)["']/g)].map((match) => match[1]);
    expect(assets).toEqual(expect.arrayContaining(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui-init.js']));
    for (const asset of assets) {
      const loaded = await tally.http().get(`/docs/${asset}`);
      expect([asset, loaded.status, loaded.headers['content-type']]).toEqual([asset, 200, expect.not.stringMatching(/problem/)]);
    }
    expect((await tally.http().get('/docs/swagger-ui-init.js')).text).toContain('"openapi": "3.1.0"');
  });

  describe('the response check of the end-to-end tests', () => {
    const customer = '/v1/customers/cus_1';

    it('accepts a response the document promises', () => {
      expect(() => tally.contract.check('GET', customer, response(404, 'application/problem+json; charset=utf-8', problem(404, 'customer.not_found')))).not.toThrow();
      expect(() => tally.contract.check('GET', '/v1/nowhere', response(404, 'application/problem+json', problem(404, 'route.not_found')))).not.toThrow();
      expect(() => tally.contract.check('GET', '/metrics', response(200, 'text/plain', 'anything'))).not.toThrow();
    });

    it.each([
      ['an undocumented status', 'GET', customer, response(418, 'application/problem+json', problem(418, 'request.invalid')), /status not documented/],
      ['an undocumented media type', 'GET', customer, response(404, 'application/json', problem(404, 'customer.not_found')), /content type application\/json not documented/],
      ['a body that breaks the schema', 'GET', customer, response(200, 'application/json', { id: 'cus_1', object: 'customer' }), /must have required property/],
      ['a code the route does not answer with', 'GET', customer, response(404, 'application/problem+json', problem(404, 'event.not_found')), /must be equal to one of the allowed values/],
      ['a status that is not the body’s', 'GET', customer, response(404, 'application/problem+json', problem(400, 'customer.not_found')), /\/status must be equal to one of the allowed values/],
      ['a success for an unknown route', 'GET', '/v1/nowhere', response(200, 'application/json', {}), /expected 404 route.not_found/],
      ['another answer to a method the path lacks', 'DELETE', '/v1/customers', response(404, 'application/problem+json', problem(404, 'route.not_found')), /expected 405 route.method_not_allowed/],
    ])('refuses %s', (_case, method, url, answer, message) => {
      expect(() => tally.contract.check(method, url, answer)).toThrow(message);
    });
  });
});
