/**
 * The victim of the usage crash test: a whole Tally (API and worker in process) on a data dir.
 * It creates a tenant, a plan with a usage component and a subscription, prints
 * `ready <sandbox key> <subscription id>`, then sends batches of BATCH_EVENTS events, two at a
 * time, without end: `sending <n>` before batch n leaves, `acked <n>` once it was answered 202.
 * Batch n holds the events `b<n>-0` … of quantity 1 each.
 *
 *   node -r ./test/support/ts-child.js test/support/usage-crash-child.ts <dataDir>
 */
import { TallyUnderTest } from './tally';

export const BATCH_EVENTS = 200;
export const USAGE_PLAN = {
  code: 'metered',
  product_code: 'metered',
  currency: 'EUR',
  interval: 'month',
  interval_count: 1,
  components: [{ code: 'calls', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.01' }] } }],
};

export const usageBatch = (subscription: string, n: number, timestamp: string) => ({
  events: Array.from({ length: BATCH_EVENTS }, (_, i) => ({ subscription_id: subscription, meter: 'calls', quantity: '1', timestamp, external_id: `b${n}-${i}` })),
});

async function main(dataDir: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  const acme = await tally.tenant('Acme', 'eu');
  await tally.liftRateLimits(acme.tenantId);
  const api = tally.as(acme.sandbox);
  await api.post('/v1/plans', USAGE_PLAN).expect(200);
  const customer = (await api.post('/v1/customers', { email: 'crash@example.com' }).expect(200)).body.id as string;
  const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'metered' }).expect(200)).body.id as string;
  process.stdout.write(`ready ${acme.sandbox} ${subscription}\n`);
  let next = 0;
  const sender = async () => {
    for (;;) {
      const n = next++;
      process.stdout.write(`sending ${n}\n`);
      await api.post('/v1/usage/batch', usageBatch(subscription, n, tally.clock.now().toISOString())).expect(202);
      process.stdout.write(`acked ${n}\n`);
    }
  };
  await Promise.all([sender(), sender()]);
}

if (require.main === module) {
  main(process.argv[2]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
