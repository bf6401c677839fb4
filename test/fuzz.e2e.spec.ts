import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { REGIONS } from '@tally/platform';
import { OPERATOR_KEY, TallyUnderTest } from './support/tally';
import { randomRequests, type RandomRequest } from './support/random-requests';

/** Requests in all, spread over every route of the document. */
const RUNS = 300;

/** The codes of the table in docs/errors.md. */
const LISTED_CODES = new Set([...readFileSync(join(__dirname, '..', 'docs', 'errors.md'), 'utf8').matchAll(/^\| \d{3} \| `([^`]+)` \|/gm)].map(([, code]) => code));

describe('random requests to every documented route', () => {
  let tally: TallyUnderTest;
  let requests: fc.Arbitrary<RandomRequest>;

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    const { live } = await tally.tenant('Acme', 'eu');
    const api = tally.as(live);
    const customer = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada' }).expect(200)).body;
    const taxId = (await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE136695976' }).expect(200)).body;
    const fuzzed = (await tally.operator().post('/v1/operator/tenants', { name: 'Fuzzed', region: 'us' }).expect(200)).body;
    await tally.settle();
    const event = (await api.get('/v1/events?limit=1').expect(200)).body.data[0];
    // The operator routes work on a tenant of their own, so revoking its keys leaves Acme's key working.
    const sources = {
      ids: { id: [customer.id, event.id, fuzzed.id], keyId: fuzzed.api_keys.map((key: { id: string }) => key.id), tax_id_id: [taxId.id] },
      keys: { api_key: live, operator_key: OPERATOR_KEY },
    };
    requests = fc.oneof(...tally.contract.routes.map((route) => randomRequests(tally.contract.document, route, sources)));
  });

  afterAll(() => tally.stop());

  const send = ({ method, url, headers, body }: RandomRequest) => {
    const test = tally.http()[method](url).set(headers);
    return body === undefined ? test : test.send(body);
  };

  const heads = () => Promise.all(REGIONS.map((region) => tally.head(region)));

  it('answers without a 5xx, every error as problem+json with a listed code, and appends nothing when it refuses', async () => {
    expect(LISTED_CODES.size).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        await tally.settle();
        const before = await heads();
        const response = await send(request);
        expect(response.status).toBeLessThan(500);
        if (response.status < 400) return;
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(LISTED_CODES).toContain(response.body.problem);
        expect(await heads()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
