import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { REGIONS } from '@tally/cells';
import { OPERATOR_KEY, TallyUnderTest } from './support/tally';
import type { DocumentedRoute } from './support/openapi-contract';
import { randomRequests, validRequests, type RandomRequest } from './support/random-requests';
import { scaled } from './support/time-scale';

/** Requests in all, spread over every route of the document: hostile ones, and ones the document allows. */
const RUNS = 300;
const VALID_RUNS = 1000;

/** What the edge answers to a request that breaks the document; one the document allows never gets it. */
const EDGE_REFUSALS = [
  'request.malformed_json',
  'request.invalid_body',
  'request.invalid',
  'request.invalid_parameter',
  'request.invalid_if_match',
  'request.unsupported_media_type',
  'request.too_large',
  'idempotency.invalid_key',
  'api_version.unknown',
];

/** The codes of the table in docs/errors.md. */
const LISTED_CODES = new Set([...readFileSync(join(__dirname, '..', 'docs', 'errors.md'), 'utf8').matchAll(/^\| \d{3} \| `([^`]+)` \|/gm)].map(([, code]) => code));

/**
 * The problem codes the libraries declare: the first argument of a DomainError, a body the problem
 * filter answers, and the codes a route documents by status (ProblemCodes).
 */
function declaredCodes(dir = join(__dirname, '..', 'libs')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : declaredCodes(path);
    if (!path.endsWith('.ts') || path.endsWith('.spec.ts')) return [];
    const source = readFileSync(path, 'utf8');
    const thrown = [...source.matchAll(/(?:DomainError\.\w+|new DomainError|problemBody)\(\s*(?:\d+,\s*)?'([a-z0-9_]+\.[a-z0-9_.]+)'/g)].map(([, code]) => code);
    const documented = [...source.matchAll(/\b[1-5]\d\d: \[([^\]]*)\]/g)].flatMap(([, codes]) => [...codes.matchAll(/'([a-z0-9_]+\.[a-z0-9_.]+)'/g)].map(([, code]) => code));
    return [...thrown, ...documented];
  });
}

/** Codes of guards inside the domain that no request reaches, so no client meets them: the not-found of streams no route names, and dates the engine gets from validated timestamps. */
const UNANSWERED_CODES = ['invoice.number_sequence_not_found', 'payment.failed_invoices_not_found', 'tax.settings_not_found', 'tax.invalid_date'];

describe('the codes of docs/errors.md', () => {
  it('list every problem code the libraries declare, but for the guards no request reaches', () => {
    const declared = new Set(declaredCodes());
    expect(declared.size).toBeGreaterThan(100);
    expect([...declared].filter((code) => !LISTED_CODES.has(code) && !UNANSWERED_CODES.includes(code)).sort()).toEqual([]);
    expect(UNANSWERED_CODES.filter((code) => !declared.has(code) || LISTED_CODES.has(code))).toEqual([]);
  });
});

describe('random requests to every documented route', () => {
  let tally: TallyUnderTest;
  let requests: fc.Arbitrary<RandomRequest>;
  let valid: fc.Arbitrary<RandomRequest>;

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    const { live, tenantId } = await tally.tenant('Acme', 'eu');
    await tally.liftRateLimits(tenantId);
    const api = tally.as(live);
    const customer = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada' }).expect(200)).body;
    const taxId = (await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE136695976' }).expect(200)).body;
    const fuzzed = (await tally.operator().post('/v1/operator/tenants', { name: 'Fuzzed', region: 'us' }).expect(200)).body;
    await tally.settle();
    const plan = (await api.post('/v1/plans', { code: 'team', product_code: 'team', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'seats', pricing: { model: 'per_unit', unit_amount: '8.00' } }] }).expect(200)).body;
    const coupon = (await api.post('/v1/coupons', { code: 'WELCOME10', percent_off: '10', duration: 'once' }).expect(200)).body;
    const event = (await api.get('/v1/events?limit=1').expect(200)).body.data[0];
    // The operator routes work on a tenant of their own, so revoking its keys leaves Acme's key working.
    const sources = {
      ids: {
        id: [customer.id, event.id, fuzzed.id],
        keyId: fuzzed.api_keys.map((key: { id: string }) => key.id),
        tax_id_id: [taxId.id],
        plan: [plan.code, plan.id],
        component: ['seats'],
        coupon: [coupon.code, coupon.id],
      },
      keys: { api_key: live, operator_key: OPERATOR_KEY },
    };
    requests = fc.oneof(...tally.contract.routes.map((route) => randomRequests(tally.contract.document, route, sources)));
    // A body has the most rules to break, so routes that take one are chosen three times as often.
    const { document } = tally.contract;
    const takesBody = (route: DocumentedRoute) => document.paths[route.template][route.method.toLowerCase() as 'post']?.requestBody !== undefined;
    valid = fc.oneof(...tally.contract.routes.map((route) => ({ arbitrary: validRequests(document, route, sources, (schema) => tally.contract.accepts(schema)), weight: takesBody(route) ? 3 : 1 })));
  }, scaled(60_000));

  afterAll(() => tally.stop());

  const send = ({ method, url, headers, body }: RandomRequest) => {
    const test = tally.http()[method](url).set(headers);
    return body === undefined ? test : test.send(body);
  };

  const heads = () => Promise.all(REGIONS.map((region) => tally.head(region)));

  /** No 5xx, and every error as problem+json with a listed code. */
  const expectAnswered = (response: Awaited<ReturnType<typeof send>>) => {
    expect(response.status).toBeLessThan(500);
    if (response.status < 400) return;
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(LISTED_CODES).toContain(response.body.problem);
  };

  it('answers without a 5xx, every error as problem+json with a listed code, and appends nothing when it refuses', async () => {
    expect(LISTED_CODES.size).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        await tally.settle();
        const before = await heads();
        const response = await send(request);
        expectAnswered(response);
        if (response.status >= 400) expect(await heads()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  }, scaled(120_000));

  it('never refuses at the edge a request the document allows: a rule it does not state is a rule the server does not have', async () => {
    await fc.assert(
      fc.asyncProperty(valid, async (request) => {
        const response = await send(request);
        expectAnswered(response);
        if (EDGE_REFUSALS.includes(response.body?.problem)) {
          throw new Error(`${request.method.toUpperCase()} ${request.url} ${JSON.stringify(request.headers)} ${request.body ?? ''}\nwas refused: ${response.text}`);
        }
      }),
      { numRuns: VALID_RUNS },
    );
  }, scaled(120_000));
});
