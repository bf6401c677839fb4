import { createJsonLog } from '@tally/observability';
import { REGIONS } from '@tally/cells';
import { hashApiKey } from '@tally/http';
import { CONTEXTS } from '../apps/contexts';
import { TallyUnderTest, type TestTenant } from './support/tally';

/** The value of one sample in a Prometheus text exposition, 0 when the series is absent. */
function sample(exposition: string, series: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('observability: metrics and JSON logs', () => {
  const lines: string[] = [];
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  const scrape = async (): Promise<string> => (await tally.http().get('/metrics').expect(200)).text;
  const logged = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    tally = await TallyUnderTest.start({ logger: createJsonLog('info', { write: (line: string) => lines.push(line) }) });
    acme = await tally.tenant('Acme', 'eu');
    api = tally.as(acme.sandbox);
  });

  afterAll(() => tally.stop());

  it('serves the Prometheus text format without a key', async () => {
    const response = await tally.http().get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*\bversion=0\.0\.4\b/);
    expect(response.text).toContain('# TYPE http_requests_total counter\n');
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram\n');
    expect(response.text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  it('counts requests by route template and status, never by raw path', async () => {
    const before = await scrape();
    const created = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada' }).expect(200)).body;
    await api.get(`/v1/customers/${created.id}`).expect(200);
    await api.get(`/v1/customers/${created.id}`).expect(200);
    await api.get('/v1/customers/cus_00000000000000000000000000').expect(404);
    await tally.http().get('/nowhere').expect(404);
    const after = await scrape();

    const grew = (series: string) => sample(after, series) - sample(before, series);
    expect(grew('http_requests_total{method="POST",route="/v1/customers",status="200"}')).toBe(1);
    expect(grew('http_requests_total{method="GET",route="/v1/customers/:id",status="200"}')).toBe(2);
    expect(grew('http_requests_total{method="GET",route="/v1/customers/:id",status="404"}')).toBe(1);
    expect(grew('http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(grew('http_request_duration_seconds_count{method="GET",route="/v1/customers/:id"}')).toBe(3);
    expect(grew('http_request_duration_seconds_bucket{method="GET",route="/v1/customers/:id",le="+Inf"}')).toBe(3);
    expect(after).not.toContain(created.id);
    expect(after).not.toContain('/nowhere');
  });

  it('times appends per region', async () => {
    const before = sample(await scrape(), 'event_store_append_duration_seconds_count{region="eu"}');
    await api.post('/v1/customers', { name: 'Grace' }).expect(200);
    const after = await scrape();
    expect(sample(after, 'event_store_append_duration_seconds_count{region="eu"}')).toBe(before + 1);
    expect(sample(after, 'event_store_append_duration_seconds_sum{region="eu"}')).toBeGreaterThan(0);
  });

  it('reports every projection of every region with no lag once the worker has settled', async () => {
    await api.post('/v1/customers', { name: 'Edsger' }).expect(200);
    await tally.settle();
    const exposition = await scrape();
    for (const projection of [...CONTEXTS.projections.map((p) => p.name), 'timers', 'parked_commands', 'test_clocks']) {
      for (const region of REGIONS) {
        expect(exposition).toContain(`projection_lag_events{projection="${projection}",region="${region}"} 0\n`);
      }
    }
  });

  it('writes one JSON access-log line per request with its id, tenant and status, without the query string', async () => {
    const response = await api.get('/v1/customers?email[starts]=ada@example.com').expect(200);
    const requestId = response.headers['request-id'];
    const line = logged().find((entry) => entry.request_id === requestId);
    expect(line).toMatchObject({
      level: 'info',
      request_id: requestId,
      trace_id: requestId,
      tenant_id: acme.tenantId,
      environment: 'sandbox',
      method: 'GET',
      route: '/v1/customers',
      path: '/v1/customers',
      status: 200,
      duration_ms: expect.any(Number),
    });
    expect(lines.join('\n')).not.toContain('ada@example.com');
  });

  it('logs neither a webhook signing secret nor an API key or its hash', async () => {
    const created = (await api.post('/v1/admin/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }).expect(200)).body;
    const rotated = (await api.post(`/v1/admin/webhook-endpoints/${created.id}/rotate-secret`, { expires_in: 60 }).expect(200)).body;
    await api.post('/v1/customers', { email: 'hooked@example.com' }).expect(200);
    await tally.settle();
    await tally.as(acme.live).get(`/v1/admin/aggregates/${acme.tenantId}/history`).expect(200);
    await api.get(`/v1/admin/aggregates/${created.id}/history`).expect(200);
    const log = lines.join('\n');
    expect(log).toContain(created.id);
    for (const secret of [created.secret, rotated.secret, acme.live, acme.sandbox, hashApiKey(acme.live), hashApiKey(acme.sandbox)]) expect(log).not.toContain(secret);
  });

  it('logs a failure with its trace id and tenant as fields', async () => {
    const append = jest.spyOn(tally.cells.cell('eu').events, 'append').mockRejectedValueOnce(new Error('the disk is on fire'));
    const failed = await api.post('/v1/customers', { email: 'grace@example.com' }).expect(500);
    append.mockRestore();
    const line = logged().find((entry) => entry.level === 'error' && entry.trace_id === failed.body.trace_id);
    expect(line).toMatchObject({ context: 'http', tenant_id: acme.tenantId, environment: 'sandbox', msg: 'POST /v1/customers failed' });
    expect(line?.stack).toContain('the disk is on fire');
    expect(lines.join('\n')).not.toContain('grace@example.com');
  });
});
