import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import type { Response } from 'supertest';
import { TallyUnderTest } from './support/tally';

/** The Express routes Nest registered for controllers, as `METHOD /path/{param}`. */
function servedRoutes(tally: TallyUnderTest): string[] {
  const stack = (tally.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
  return stack.flatMap(({ route }) =>
    route ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`) : [],
  );
}

const operationsOf = (document: OpenAPIObject): [string, OperationObject][] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => (item[method] ? [[`${method.toUpperCase()} ${path}`, item[method]!] as [string, OperationObject]] : [])),
  );

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

  it('documents every route the controllers serve, except the metrics scrape', () => {
    const reference = /^GET \/(docs|openapi\.json)/;
    const served = servedRoutes(tally).filter((route) => !reference.test(route) && route !== 'GET /metrics');
    expect(operationsOf(document).map(([route]) => route).sort()).toEqual([...new Set(served)].sort());
  });

  it('gives every operation a JSON success body and its errors as problem+json, with the edge’s, the key’s and the idempotency key’s problems', () => {
    for (const [route, operation] of operationsOf(document)) {
      const statuses = Object.keys(operation.responses).map(Number);
      const success = Object.entries(operation.responses).filter(([status]) => Number(status) < 300) as [string, ResponseObject][];
      expect([route, success.map(([, r]) => Object.keys(r.content ?? {}))]).toEqual([route, [['application/json']]]);
      for (const [status, answer] of Object.entries(operation.responses) as [string, ResponseObject][]) {
        if (Number(status) >= 400) expect([route, status, Object.keys(answer.content ?? {})]).toEqual([route, status, ['application/problem+json']]);
      }
      const required = [400, 413, 415, 500, ...(route.includes(' /v1/') ? [401] : []), ...(route.startsWith('POST /v1/') ? [409] : [])];
      expect([route, required.filter((status) => !statuses.includes(status))]).toEqual([route, []]);
      if (route.includes(' /v1/')) expect([route, operation.security]).toEqual([route, [{ [route.includes('/v1/operator/') ? 'operator_key' : 'api_key']: [] }]]);
      if (route.startsWith('POST /v1/')) expect([route, operation.parameters?.some((p) => 'name' in p && p.name === 'Idempotency-Key')]).toEqual([route, true]);
    }
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
