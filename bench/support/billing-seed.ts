import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { ManualClock, UlidGenerator, type IdGenerator } from '@tally/kernel';
import type { NewEvent, RecordedEvent } from '@tally/eventstore';
import { ID_GENERATOR, openEmbeddedCells, readConfig, type Cell, type CellRegistry } from '@tally/cells';
import { CommandRuntime, Worker } from '@tally/runtime';
import { TenantAdministration } from '@tally/tenancy';
import { createApp } from '../../apps/api/src/create-app';
import { CONTEXTS } from '../../apps/contexts';

/** When the seeded subscriptions start; their first monthly period ends at PERIOD_END. */
export const SEEDED_AT = '2026-01-01T00:00:00.000Z';
export const PERIOD_END = '2026-02-01T00:00:00.000Z';
export const PLAN_CODE = 'team';
/** The checkpoints of the runners that must not act on the seeded history (it is as if they had). */
const ALREADY_HANDLED = ['dispatcher', 'reaction:payment_method_attachment', 'reaction:subscription_invoicing', 'reaction:subscription_invoice_outcomes'];

/** A plan of three components: a flat base, per-unit seats, and metered API calls (which read zero). */
const PLAN = {
  code: PLAN_CODE,
  product_code: 'team',
  currency: 'EUR',
  interval: 'month',
  interval_count: 1,
  components: [
    { code: 'base', pricing: { model: 'flat', amount: '28.00' } },
    { code: 'seats', pricing: { model: 'per_unit', unit_amount: '10.00' } },
    { code: 'api_calls', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.001' }] } },
  ],
};

export interface SeededTally {
  dataDir: string;
  tenantId: string;
  /** How long the seeding and the projections' catch-up of it took, in milliseconds. */
  seedMs: number;
  catchUpMs: number;
}

/** The embedded profile in `dataDir`, its worker in this process on a manual clock: what the bench and the seed run. */
export async function startTallyAt(dataDir: string, clock: ManualClock) {
  const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded' });
  const app = await createApp({ config, worker: 'in-process', clock }, { logger: false });
  await app.init();
  return app;
}

export const openCells = (dataDir: string, clock: ManualClock): CellRegistry =>
  openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });

/**
 * A data folder with one tenant, one plan of three components and `subscriptions` active monthly
 * subscriptions (one customer each, three seats, Portuguese billing address) whose periods all end
 * at PERIOD_END, every read model caught up.
 *
 * One customer and subscription go through the HTTP API (the worker issues the first period's
 * invoice); the others are copies of what that create wrote, with ids of their own: the customer's
 * and subscription's streams (the subscription's events set its period-end timer), personal data
 * sealed with each customer's own key. The first invoice of the copies is not issued (the reactions
 * that would issue it start after the copies), which changes nothing for the next period's.
 */
export async function seedBillingRun(subscriptions: number, { payments = false }: { payments?: boolean } = {}): Promise<SeededTally> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-billing-'));
  const clock = new ManualClock(SEEDED_AT);
  const started = performance.now();

  const app = await startTallyAt(dataDir, clock);
  await app.listen(0, '127.0.0.1');
  const worker = app.get(Worker);
  const tenants = new TenantAdministration(app.get(CommandRuntime), app.get<IdGenerator>(ID_GENERATOR));
  const { tenantId, keys } = await tenants.createTenant('Bench', 'eu');
  await tenants.updateTenant(tenantId, 'eu', { rate_limits: { read: 1_000_000, write: 1_000_000 } }, { actor: 'operator', requestId: null, reason: 'benchmark' });
  await worker.settle();
  const key = keys.find((k) => k.environment === 'sandbox')!.secret;
  const { port } = app.getHttpServer().address() as AddressInfo;
  const send = async (method: string, path: string, body: object): Promise<{ id: string }> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const post = (path: string, body: object) => send('POST', path, body);
  // Tax through the engine: a Portuguese seller and customers, VAT on every invoice.
  await send('PATCH', '/v1/tax/settings', { origin: { country: 'PT' } });
  await post('/v1/plans', PLAN);
  const customer = await post('/v1/customers', { email: 'customer0@example.com', name: 'Customer 0', billing_address: { line1: '1 Main Street', city: 'Lisbon', country: 'PT', postal_code: '1100-001' } });
  // With payments, each customer's default card pays its invoices as they are finalised (the copies share the sandbox's card).
  const method = payments ? await post(`/v1/customers/${customer.id}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }) : undefined;
  const subscription = await post('/v1/subscriptions', { customer_id: customer.id, plan_code: PLAN_CODE, quantities: { seats: 3 } });
  await worker.settle();
  await app.close();

  const cells = openCells(dataDir, clock);
  const cell = cells.cell('eu');
  const template: Template = {
    customer: await decoded(cell, `customer-${customer.id}`),
    subscription: await decoded(cell, `subscription-${subscription.id}`),
    method: method ? await decoded(cell, `payment_method-${method.id}`) : [],
  };
  const ids = new UlidGenerator(clock);
  for (let i = 1; i < subscriptions; i++) await copy(cell, ids, template, { customer: customer.id, subscription: subscription.id, method: method?.id }, i);
  const head = (await cell.events.headPosition())!;
  for (const name of ALREADY_HANDLED) await cell.readModels.commit([], { name, position: head });
  await cells.close();
  const seedMs = performance.now() - started;

  // The projections catch up with the copies (customers, subscriptions, timers, public events).
  const catchingUp = performance.now();
  const again = await startTallyAt(dataDir, clock);
  await again.get(Worker).settle();
  await again.close();
  return { dataDir, tenantId, seedMs, catchUpMs: performance.now() - catchingUp };
}

async function decoded(cell: Cell, stream: string): Promise<RecordedEvent[]> {
  const events = await cell.events.readStream(stream);
  if (events.length === 0) throw new Error(`the template stream ${stream} is empty`);
  return Promise.all(events.map(async (event) => ({ ...event, data: await cell.pii.decode(event.type, event.data) })));
}

type Template = Record<'customer' | 'subscription' | 'method', RecordedEvent[]>;

/** The template's streams again (customer, subscription, and the payment method if any), for customer and subscription number `n`. */
async function copy(cell: Cell, ids: IdGenerator, template: Template, of: { customer: string; subscription: string; method: string | undefined }, n: number): Promise<void> {
  const renamed = new Map<string, string>([
    [of.customer, ids.next('cus')],
    [of.subscription, ids.next('sub')],
    ...(of.method ? [[of.method, ids.next('pm')] as [string, string]] : []),
    ['customer0@example.com', `customer${n}@example.com`],
    ['Customer 0', `Customer ${n}`],
  ]);
  for (const event of [...template.customer, ...template.subscription, ...template.method]) renamed.set(event.id, ids.ulid());
  const pattern = new RegExp([...renamed.keys()].map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const rename = <T>(value: T): T => JSON.parse(JSON.stringify(value).replace(pattern, (found) => renamed.get(found)!)) as T;
  for (const events of [template.method, template.customer, template.subscription].filter((stream) => stream.length > 0)) {
    const stream = rename(events[0].stream);
    const copies: NewEvent[] = [];
    for (const event of events) {
      const { id, type, data, metadata } = rename({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });
      copies.push({ id, type, metadata, data: await cell.pii.encode(type, data) });
    }
    await cell.events.append(stream, copies, { expectedRevision: 'no_stream' });
  }
}
