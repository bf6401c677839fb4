import { listAll } from './support/list-all';
import { TallyUnderTest, type TestTenant } from './support/tally';

/** RFC 3339 in UTC as Tally writes it: a four-digit year, never an expanded one (`+010000-…`). */
const RFC3339_UTC = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/;

/** Every string under `value` that looks like a moment (a date and a time), with its path. */
function moments(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return /^[+-]?[0-9]{4,6}-[0-9]{2}-[0-9]{2}T/.test(value) ? [[path, value]] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => moments(inner, `${path}.${key}`));
}

/** Time a client sends is bounded (years 2000 to 2099 as written), so what Tally computes from it stays RFC 3339. */
describe('bounds on time, and on the reads that follow from it', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let customer: string;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    customer = (await api.post('/v1/customers', { email: 'bounds@example.com' }).expect(200)).body.id;
    await api.post('/v1/plans', { code: 'yearly', product_code: 'yearly', currency: 'EUR', interval: 'year', trial_days: 730, components: [{ code: 'base', pricing: { model: 'flat', amount: '100.00' } }] }).expect(200);
    await tally.settle();
  });
  afterAll(() => tally.stop());

  describe('timestamps outside the years 2000 to 2099 are refused, and write nothing', () => {
    const refusals: [string, () => Promise<{ status: number; body: { problem: string; errors?: { field: string; code: string }[] } }>, string][] = [
      ['a test clock in year 1', () => api.post('/v1/test-clocks', { frozen_time: '0001-01-01T00:00:00Z' }), 'frozen_time'],
      ['a test clock in 1969', () => api.post('/v1/test-clocks', { frozen_time: '1969-12-31T23:59:59Z' }), 'frozen_time'],
      ['a test clock in 9999', () => api.post('/v1/test-clocks', { frozen_time: '9999-12-31T23:59:59Z' }), 'frozen_time'],
      ['an invoice line from year 1', () => api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', lines: [{ description: 'Old', quantity: '1', unit_amount: '1.00', period_start: '0001-01-01T00:00:00Z', period_end: '2026-01-01T00:00:00Z' }] }), 'lines.0.period_start'],
      ['an anchor in 9999', () => api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'yearly', billing_cycle_anchor: '9999-01-01T00:00:00Z' }), 'billing_cycle_anchor'],
      ['a list filter in 1969', () => api.get('/v1/customers?created_at[gte]=1969-12-31'), 'created_at[gte]'],
      ['an as_of in year 1', () => api.get(`/v1/customers/${customer}?as_of=0001-01-01T00:00:00Z`), 'as_of'],
      ['an event filter in 2100', () => api.get('/v1/events?created_at[lt]=2100-01-01T00:00:00Z'), 'created_at[lt]'],
    ];

    it.each(refusals)('%s: 400 request.timestamp_out_of_range naming the field', async (_, send, field) => {
      const before = await tally.head();
      const response = await send();
      expect([response.status, response.body.problem]).toEqual([400, 'request.timestamp_out_of_range']);
      expect(response.body.errors).toEqual([expect.objectContaining({ field, code: 'request.timestamp_out_of_range' })]);
      expect(await tally.head()).toBe(before);
    });

    it('a body that is wrong in other ways too is an invalid body, listing the timestamp with its code', async () => {
      const response = await api.post('/v1/test-clocks', { frozen_time: '1969-12-31T23:59:59Z', name: 7 }).expect(400);
      expect(response.body.problem).toBe('request.invalid_body');
      expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'frozen_time', code: 'request.timestamp_out_of_range' }), expect.objectContaining({ field: 'name' })]));
    });

    it('takes the range’s ends as written, whatever their zone; a clock advances to the end of 2099 and no further', async () => {
      const clock = (await api.post('/v1/test-clocks', { frozen_time: '2000-01-01T00:00:00+14:00' }).expect(200)).body;
      expect(clock.frozen_time).toBe('1999-12-31T10:00:00.000Z');
      const late = (await api.post('/v1/test-clocks', { frozen_time: '2099-06-01T00:00:00Z' }).expect(200)).body.id;
      await api.post(`/v1/test-clocks/${late}/advance`, { frozen_time: '2099-12-31T23:59:59-12:00' }).expect(200);
      expect((await api.post(`/v1/test-clocks/${late}/advance`, { frozen_time: '2100-01-02T00:00:00Z' }).expect(400)).body.problem).toBe('request.timestamp_out_of_range');
    });
  });

  it('writes RFC 3339 times only, from the latest clock there is through a two-year trial of a yearly plan', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2099-12-31T23:59:59Z' }).expect(200)).body.id;
    const late = (await api.post('/v1/customers', { email: 'late@example.com', test_clock: clock }).expect(200)).body.id;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: late, plan_code: 'yearly' }).expect(200)).body;
    expect(subscription).toMatchObject({ trial_days: 730, trial_end: '2101-12-31T23:59:59.000Z' });
    await tally.settle();
    const written = [
      (await api.get(`/v1/subscriptions/${subscription.id}`).expect(200)).body,
      (await api.get(`/v1/test-clocks/${clock}`).expect(200)).body,
      ...(await listAll(api, `/v1/events?aggregate_id=${subscription.id},${late}`)),
    ];
    const found = moments(written);
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter(([, value]) => !RFC3339_UTC.test(value))).toEqual([]);
  });
});
