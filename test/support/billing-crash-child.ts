/**
 * The victim of the billing crash test: a whole Tally (API and worker in process) on a data dir.
 * `start` creates a tenant, plans, a test clock and subscriptions of customers on it, prints
 * `ready <sandbox key> <clock id>`, then `advancing`, asks the clock to advance months, and prints
 * `finalized <n>` as each invoice is finalised on the way, until the test kills it with SIGKILL
 * (or `done` if the run ends first). `resume` starts the Tally again on what a kill left: its worker
 * resumes the advance; it prints `finalized <n>` likewise, then `done` once everything settled.
 *
 *   node -r ./test/support/ts-child.js test/support/billing-crash-child.ts <dataDir> start
 *   node -r ./test/support/ts-child.js test/support/billing-crash-child.ts <dataDir> resume
 */
import { TallyUnderTest } from './tally';

export const BILLING_CRASH_T0 = '2026-01-31T10:00:00.000Z';
/** Five and a half months: about six renewals a monthly subscription, twenty-four a weekly one. */
export const BILLING_CRASH_TARGET = '2026-07-15T00:00:00.000Z';
/** `BILLING_CRASH_CUSTOMERS` (default 10) sets their number: CI's MongoDB pass runs fewer, each read-model write there being a round trip to FerretDB. */
export const BILLING_CRASH_CUSTOMERS = customers(process.env.BILLING_CRASH_CUSTOMERS);
/** Per customer, each a different cycle: monthly, monthly with a trial, monthly on a later anchor, weekly. */
export const BILLING_CRASH_SUBSCRIPTIONS_PER_CUSTOMER = 4;

/** Invoices the advance finalises in all, about: six a monthly subscription, twenty-four a weekly one. */
export const BILLING_CRASH_INVOICES = BILLING_CRASH_CUSTOMERS * (3 * 6 + 24);

const DAY_MS = 86_400_000;
const POLL_MS = 5;

async function setUp(tally: TallyUnderTest): Promise<{ key: string; clock: string }> {
  const acme = await tally.tenant('Acme', 'eu');
  await tally.liftRateLimits(acme.tenantId);
  const api = tally.as(acme.sandbox);
  await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
  const plan = (code: string, interval: string, components: object[]) => api.post('/v1/plans', { code, product_code: code, currency: 'EUR', interval, interval_count: 1, components }).expect(200);
  await plan('monthly', 'month', [
    { code: 'base', pricing: { model: 'flat', amount: '28.00' } },
    { code: 'seats', pricing: { model: 'per_unit', unit_amount: '10.00' } },
  ]);
  await plan('weekly', 'week', [{ code: 'base', pricing: { model: 'flat', amount: '7.00' } }]);
  await api.post('/v1/coupons', { code: 'TEN', percent_off: '10', duration: 'forever' }).expect(200);
  const clock = (await api.post('/v1/test-clocks', { frozen_time: BILLING_CRASH_T0, name: 'crash' }).expect(200)).body.id as string;
  for (let c = 0; c < BILLING_CRASH_CUSTOMERS; c++) {
    const customer = (await api.post('/v1/customers', { email: `c${c}@example.com`, test_clock: clock, billing_address: { country: 'DE', city: 'Berlin' } }).expect(200)).body.id as string;
    const subscribe = (body: object) => api.post('/v1/subscriptions', { customer_id: customer, ...body }).expect(200);
    await subscribe({ plan_code: 'monthly', quantities: { seats: 1 + (c % 4) }, ...(c % 2 === 0 ? { coupons: ['TEN'] } : {}) });
    await subscribe({ plan_code: 'monthly', trial_days: 1 + c });
    await subscribe({ plan_code: 'monthly', billing_cycle_anchor: new Date(Date.parse(BILLING_CRASH_T0) + (c + 1) * 2 * DAY_MS + c * 3_600_000).toISOString() });
    await subscribe({ plan_code: 'weekly' });
  }
  await tally.settle();
  return { key: acme.sandbox, clock };
}

/** Prints `finalized <n>` each time an invoice is finalised after the current head, until stopped. */
async function reportFinalisations(tally: TallyUnderTest): Promise<() => void> {
  const events = tally.cells.cell('eu').events;
  let position = await tally.head();
  let finalised = 0;
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const page = await events.readAll({ fromPosition: position, limit: 500, filter: { streamPrefixes: ['invoice-'] } });
      for (const event of page) {
        position = event.position;
        if (event.type === 'InvoiceFinalized') process.stdout.write(`finalized ${++finalised}\n`);
      }
      if (page.length === 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return () => (stopped = true);
}

async function main(dataDir: string, phase: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  if (phase === 'start') {
    const { key, clock } = await setUp(tally);
    process.stdout.write(`ready ${key} ${clock}\n`);
    const stop = await reportFinalisations(tally);
    process.stdout.write('advancing\n');
    await tally.as(key).post(`/v1/test-clocks/${clock}/advance`, { frozen_time: BILLING_CRASH_TARGET }).expect(200);
    await tally.settle();
    stop();
  } else {
    const stop = await reportFinalisations(tally);
    await tally.settle();
    stop();
  }
  await tally.stop({ keepData: true });
  process.stdout.write('done\n');
}

if (require.main === module) {
  main(process.argv[2], process.argv[3]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}

function customers(value: string | undefined): number {
  if (value === undefined) return 10;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`BILLING_CRASH_CUSTOMERS is a whole number of at least 1, not ${value}`);
  return count;
}
