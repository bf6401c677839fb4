import Big from 'big.js';
import { performance } from 'node:perf_hooks';
import { listAll } from './support/list-all';
import { TallyUnderTest, type TestTenant } from './support/tally';

/** RFC 3339 in UTC as Tally writes it: a four-digit year, never an expanded one (`+010000-…`). */
const RFC3339_UTC = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/;
const DAY = 86_400_000;

/** Every string under `value` that looks like a moment (a date and a time), with its path. */
function moments(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return /^[+-]?[0-9]{4,6}-[0-9]{2}-[0-9]{2}T/.test(value) ? [[path, value]] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => moments(inner, `${path}.${key}`));
}

/**
 * Time a client sends is bounded (years 2000 to 2099 as written), so what Tally computes from it
 * stays RFC 3339; and the largest read there is (a recognition schedule of the largest invoice, its
 * PDF) neither answers unbounded nor stalls the requests of others.
 */
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

  describe('recognition schedules', () => {
    /** A finalised invoice of `count` lines over the longest service period (366 days), credited 1,234.56 in part. */
    const yearLongInvoice = async (count: number) => {
      const start = Date.parse('2026-01-01T06:00:00.000Z');
      const lines = Array.from({ length: count }, (_, i) => ({
        description: `Line ${i}`,
        quantity: '1',
        unit_amount: `${1000 + i}.37`,
        period_start: new Date(start).toISOString(),
        period_end: new Date(start + 366 * DAY).toISOString(),
      }));
      const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines }).expect(200)).body;
      const finalized = (await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200)).body as { id: string; total: string };
      await api.post(`/v1/invoices/${finalized.id}/credit-notes`, { reason: 'order_change', amount: '1234.56' }).expect(200);
      await tally.settle();
      return { id: finalized.id, credited: new Big(finalized.total).minus('1234.56').toFixed(2) };
    };
    let largest: { id: string; credited: string };

    beforeAll(async () => {
      // The largest invoice there is: 250 lines (the most an invoice has), each over the longest service period.
      largest = await yearLongInvoice(250);
    }, 120_000);

    it('refuses a service period longer than 366 days', async () => {
      const line = { description: 'Long', quantity: '1', unit_amount: '1.00', period_start: '2026-01-01T00:00:00Z', period_end: '2027-01-02T00:00:01Z' };
      const response = await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', lines: [line] }).expect(400);
      expect([response.body.problem, response.body.errors]).toEqual(['invoice.invalid_line', [expect.objectContaining({ field: 'lines[0].period_end' })]]);
    });

    type Page = { rows: { amount: string; date: string }[]; has_more: boolean; next_cursor: string | null; total: string; deferred: string };
    const pageOf = async (id: string, query = ''): Promise<Page> => (await api.get(`/v1/invoices/${id}/recognition-schedule${query}`).expect(200)).body;

    it('comes in pages (1,000 rows by default) that join into the whole schedule, each with the whole schedule’s sums', async () => {
      const { id, credited } = await yearLongInvoice(3);
      for (const limit of [undefined, 250]) {
        const pages: Page[] = [];
        for (let cursor: string | null = null; pages.length === 0 || cursor; ) {
          const query: string[] = [...(limit ? [`limit=${limit}`] : []), ...(cursor ? [`cursor=${cursor}`] : [])];
          const page: Page = await pageOf(id, query.length > 0 ? `?${query.join('&')}` : '');
          expect(page.has_more).toBe(page.next_cursor !== null);
          pages.push(page);
          cursor = page.next_cursor;
        }
        const rows = pages.flatMap((page) => page.rows);
        // Three lines of 367 UTC days each (a 366-day period from 06:00), and a reversal each.
        expect(rows.length).toBe(3 * 367 + 3);
        expect(pages.map((page) => page.rows.length)).toEqual(limit ? [250, 250, 250, 250, 104] : [1000, 104]);
        expect(new Set(pages.map((page) => `${page.total} ${page.deferred}`)).size).toBe(1);
        expect(pages[0].total).toBe(credited);
        expect(rows.reduce((sum, row) => sum.plus(row.amount), new Big(0)).toFixed(2)).toBe(credited);
        expect(rows.map((row) => row.date)).toEqual(rows.map((row) => row.date).sort());
      }
    });

    it('bounds the largest one: 250 lines of 366 days are 92 pages', async () => {
      const first = await pageOf(largest.id);
      expect([first.rows.length, first.has_more, first.total]).toEqual([1000, true, largest.credited]);
    });

    it('refuses another page size, an unknown parameter and a cursor of another schedule or list', async () => {
      const problem = async (query: string) => (await api.get(`/v1/invoices/${largest.id}/recognition-schedule?${query}`).expect(400)).body.problem;
      expect(await problem('limit=1001')).toBe('request.invalid_parameter');
      expect(await problem('limit=0')).toBe('request.invalid_parameter');
      expect(await problem('sort=date:desc')).toBe('request.invalid_parameter');
      const other = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Other', quantity: '1', unit_amount: '5.00', period_start: '2026-01-01T00:00:00Z', period_end: '2026-03-01T00:00:00Z' }] }).expect(200)).body.id;
      await api.post(`/v1/invoices/${other}/finalize`).expect(200);
      await tally.settle();
      const otherCursor = (await api.get(`/v1/invoices/${other}/recognition-schedule?limit=1`).expect(200)).body.next_cursor as string;
      expect(await problem(`cursor=${otherCursor}`)).toBe('pagination.cursor_invalid');
      await api.post('/v1/customers', { email: 'second@example.com' }).expect(200);
      await tally.settle();
      const listCursor = (await api.get('/v1/customers?limit=1').expect(200)).body.next_cursor as string;
      expect(await problem(`cursor=${listCursor}`)).toBe('pagination.cursor_invalid');
    });

    it('does not stall other requests while it, and the largest PDF, are worked out: p99 of 50 small reads stays below three times theirs alone, plus a second', async () => {
      const { url } = (await api.get(`/v1/invoices/${largest.id}/pdf`).set('Accept', 'application/json').expect(200)).body as { url: string };
      const pdfPath = ((link) => `${link.pathname}${link.search}`)(new URL(url, 'http://tally.invalid'));
      const timed = async (send: () => PromiseLike<unknown>): Promise<number> => {
        const started = performance.now();
        await send();
        return performance.now() - started;
      };
      /** 50 reads of a customer, one every 10 ms: the 99th percentile of their latencies. */
      const smallReadsP99 = async (): Promise<number> => {
        const small = Array.from({ length: 50 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 10)).then(() => timed(() => api.get(`/v1/customers/${customer}`).expect(200))));
        const latencies = (await Promise.all(small)).sort((a, b) => a - b);
        return latencies[Math.ceil(latencies.length * 0.99) - 1];
      };
      // What the machine gives a small read by itself (a loaded CI machine's share of two cores), then with the largest reads running.
      const alone = await smallReadsP99();
      const large = [
        ...Array.from({ length: 3 }, () => timed(() => api.get(`/v1/invoices/${largest.id}/recognition-schedule`).expect(200))),
        timed(() => tally.http().get(pdfPath).expect(200)),
      ];
      const started = performance.now();
      const during = await smallReadsP99();
      const smallDone = performance.now() - started;
      const largeLatencies = await Promise.all(large);
      // The large reads were still running while the small ones were sent.
      expect(Math.max(...largeLatencies)).toBeGreaterThan(Math.min(smallDone, 400));
      // Generous for a loaded machine (three times what a read takes alone, and a second more), far below a stall of seconds.
      expect(during).toBeLessThan(3 * alone + 1000);
    });
  });
});
