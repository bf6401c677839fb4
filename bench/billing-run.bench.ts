/**
 * A billing run: N monthly subscriptions of one tenant (a plan of three components) whose periods
 * all end at the same moment; the clock moves past it, and the run lasts until every due timer has
 * fired and each period's invoice is finalised and in the invoices read model, all through the
 * worker as production runs it (timer poller, subscription cycle, command dispatcher, subscription
 * and invoice aggregates, number sequence, projections). Against a baseline of only the essential
 * work per invoice on the same seeded data: read the subscription document, price it (the same
 * pricing and tax functions), append the invoice's events, upsert its document, in batches. A third
 * case, the floor, adds to the baseline the other writes a closed period needs (see `floor` below).
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/billing-run.bench.js [subscriptions…]
 *
 * Each case runs in a child process of its own on a fresh copy of the seeded folder, so that its
 * peak RSS (VmHWM, reset when the clock moves) is its own.
 */
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock, type IdGenerator } from '@tally/kernel';
import type { EventMetadata, EventStore, NewEvent } from '@tally/eventstore';
import type { After, Doc, ReadStore, Write } from '@tally/readstore';
import { CellRegistry, ID_GENERATOR, readConfig, type RequestContext } from '@tally/cells';
import { AGGREGATE_TIMER_STREAMS, AGGREGATE_TIMERS, aggregateTimerDocId, asEventOf, CommandRuntime, type HistoryEvent, Worker } from '@tally/runtime';
import { TAX_ENGINE, taxSettingsAggregate, taxSettingsIdOf, type TaxCustomer, type TaxEngine } from '@tally/tax';
import {
  applyDiscounts,
  DEFAULT_DUNNING,
  invoiceDecider,
  invoiceView,
  subscriptionInvoiceCreation,
  subscriptionInvoiceId,
  totalInvoice,
  totalsData,
  type InvoiceEvent,
  type InvoiceLine,
  type InvoiceResource,
  type InvoiceState,
} from '@tally/invoicing';
import { boundary } from '../libs/subscriptions/src/domain/billing-cycle';
import { licensedLines, loadPlan, usageLines } from '../libs/subscriptions/src/plan-terms';
import { createApp } from '../apps/api/src/create-app';
import { PERIOD_END, PLAN_CODE, SEEDED_AT, seedBillingRun, startTallyAt } from './support/billing-seed';
import { writeFootprint } from './support/write-footprint';

const SIZES = [10_000, 100_000];
/** The target (issue 11): ≥ 2,000 invoices/s, and ≥ 60% of the baseline's rate measured in the same run. */
const TARGET_RATE = 2_000;
const TARGET_SHARE = 0.6;
/** The targets of issue 29: the run at ≥ 60% of the floor's rate, and with payments at ≥ 65% of the run without them. */
const FLOOR_SHARE = 0.6;
const PAID_SHARE = 0.65;
/** Rounds of the smaller size (alternating baseline and full run); the largest runs once each. */
const ROUNDS = 3;
const PAGE = 1_000;

interface CaseResult {
  invoices: number;
  ms: number;
  /** Peak resident set during the measured part (VmHWM after a reset), and before it, in MiB. */
  peakRssMiB: number;
  startRssMiB: number;
  /** What the heap still holds after a full collection at the end of the measured part, in MiB. */
  liveHeapMiB: number;
  /** The full runs: the events the measured part appended, and the appends that wrote them. */
  footprint?: { events: number; appends: number };
}

/**
 * Every measured case runs with the same old-generation limit: V8 otherwise lets garbage pile up for as
 * long as the run lasts (it collects the old generation lazily), so the peak would measure the
 * length of the run rather than what it keeps. What it keeps is the live heap after a collection.
 */
const CHILD_NODE_OPTIONS = ['--expose-gc', '--max-old-space-size=384'];

// ——— measured in a child process ———

/** Peak RSS of this process from now on: Linux resets VmHWM when 5 is written to clear_refs. */
function resetPeakRss(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}

function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
}

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

function liveHeap(): number {
  if (!global.gc) throw new Error('the bench children run with --expose-gc');
  global.gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The full run: the worker of the embedded profile fires the due timers and bills each period (and, on a folder seeded with payments, pays it). */
async function fullRun(dataDir: string, subscriptions: number, expected: 'open' | 'paid' = 'open'): Promise<CaseResult> {
  const clock = new ManualClock(SEEDED_AT);
  const app = await startTallyAt(dataDir, clock);
  const worker = app.get(Worker);
  const cell = app.get(CellRegistry).cell('eu');
  const reads = cell.readModels;
  await worker.settle();
  const from = await cell.events.headPosition();
  global.gc?.();
  const startRssMiB = rssMiB();
  resetPeakRss();
  const started = performance.now();
  // The timer poller (every 250 ms, as in production) finds the timers due.
  clock.set(PERIOD_END);
  // Settling asks every follower how far it is, which costs reads: only once no due timer is left.
  for (;;) {
    await sleep(100);
    if ((await dueTimers(reads)) > 0) continue;
    await worker.settle();
    if ((await dueTimers(reads)) === 0) break;
  }
  const ms = performance.now() - started;
  const peak = peakRssMiB();
  const liveHeapMiB = liveHeap();
  const invoices = await checkInvoices(reads, subscriptions, expected);
  const { events, appends } = await writeFootprint(cell.events, from);
  await app.close();
  return { invoices, ms, peakRssMiB: peak, startRssMiB, liveHeapMiB, footprint: { events, appends } };
}

const dueTimers = async (reads: ReadStore): Promise<number> =>
  (
    await reads.find(AGGREGATE_TIMERS, {
      where: [
        { field: 'clock', op: 'eq', value: 'system' },
        { field: 'status', op: 'eq', value: 'pending' },
        { field: 'due_at', op: 'lte', value: PERIOD_END },
      ],
      // In the index's order, as the timer poller asks: sorted by id, the look scans every timer, and costs more the more there are.
      sort: { field: 'due_at', direction: 'asc' },
      limit: 1,
    })
  ).items.length;

/** Every subscription's second period has one invoice, open (or paid, with payments), numbered from a gap-free sequence. */
async function checkInvoices(reads: ReadStore, subscriptions: number, expected: 'open' | 'paid'): Promise<number> {
  const numbers = new Set<string>();
  const bySubscription = new Set<string>();
  await eachPage(reads, 'invoices', [{ field: 'period_start', op: 'eq', value: PERIOD_END }], (page) => {
    for (const invoice of page) {
      if (invoice.status !== expected) throw new Error(`invoice ${invoice.id} is ${String(invoice.status)}`);
      bySubscription.add(invoice.subscription_id as string);
      numbers.add(invoice.number as string);
    }
  });
  if (bySubscription.size !== subscriptions) throw new Error(`${bySubscription.size} subscriptions invoiced of ${subscriptions}`);
  if (numbers.size !== subscriptions) throw new Error(`${numbers.size} distinct numbers for ${subscriptions} invoices`);
  return bySubscription.size;
}

async function eachPage(reads: ReadStore, collection: string, where: Parameters<ReadStore['find']>[1]['where'], each: (page: Doc[]) => Promise<void> | void): Promise<void> {
  let after: After | undefined;
  for (;;) {
    const { items, hasMore } = await reads.find<Doc>(collection, { where, after, limit: PAGE });
    await each(items);
    if (!hasMore || items.length === 0) return;
    after = { value: items[items.length - 1].id, id: items[items.length - 1].id };
  }
}

/**
 * The baseline: for each subscription document, price its next period (licensed in advance, the
 * closed period's usage in arrears, tax through the engine), decide the invoice's events with the
 * invoice decider (created, then finalised with the next number), append them to the invoice's
 * stream, and upsert the invoice's document, a page of 1,000 subscriptions at a time: the page's
 * appends commit together (group commit) and its upserts in one commit. The plan and the tax
 * origin are read once; each page reads its customers' documents in one query.
 */
async function baseline(dataDir: string, subscriptions: number, floor = false): Promise<CaseResult> {
  const clock = new ManualClock(PERIOD_END);
  const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded' });
  const app = await createApp({ config, worker: false, clock }, { logger: false });
  await app.init();
  const cell = app.get(CellRegistry).cell('eu');
  const runtime = app.get(CommandRuntime);
  const taxes = app.get<TaxEngine>(TAX_ENGINE);
  const ids = app.get<IdGenerator>(ID_GENERATOR);
  const reads = cell.readModels;
  global.gc?.();
  const startRssMiB = rssMiB();
  resetPeakRss();
  const started = performance.now();

  const first = (await reads.find<Doc>('subscriptions', { limit: 1 })).items[0];
  const context: RequestContext = { tenantId: first.tenant_id as string, environment: 'sandbox', region: 'eu', actor: 'bench', requestId: null, correlationId: null, causationId: null };
  const plan = await loadPlan(runtime, context, PLAN_CODE);
  const { origin } = (await runtime.load(cell, taxSettingsAggregate, taxSettingsIdOf(context), context)).state;
  if (!origin) throw new Error('the seeded tenant has no tax origin');
  let number = 0;
  let invoices = 0;
  await eachPage(reads, 'subscriptions', [{ field: 'current_period_end', op: 'eq', value: PERIOD_END }], async (page) => {
    const customers = await reads.find<Doc>('customers', { where: [{ field: 'id', op: 'in', value: page.map((s) => s.customer_id as string) }], limit: PAGE });
    const countryOf = new Map(customers.items.map((c) => [c.id, (c.billing_address as { country: string | null } | null)?.country ?? null]));
    const writes: Write[] = [];
    const appends: Promise<unknown>[] = [];
    const reservations: NewEvent[] = [];
    for (const subscription of page) {
      const closed = { start: subscription.current_period_start as string, end: PERIOD_END };
      const next = { start: PERIOD_END, end: boundary(PERIOD_END, { interval: 'month', count: 1 }, 1) };
      const lines: InvoiceLine[] = [...licensedLines(plan, subscription.quantities as Record<string, number>, next), ...usageLines(plan, new Map(), closed)];
      const country = countryOf.get(subscription.customer_id as string) ?? null;
      const customer: TaxCustomer = { location: country ? { country, region: null } : null, tax_ids: [], tax_id_invalid: false };
      const discounted = applyDiscounts(lines, [], plan.currency);
      const tax = await taxes.calculate({ currency: plan.currency, date: next.start, behavior: plan.taxBehavior, seller: origin, customer, lines: lines.map((line, i) => ({ key: line.code, amount: discounted.lines[i].amount_after, tax_code: line.tax_code })) });
      const computed = { ...totalInvoice({ behavior: plan.taxBehavior, lines, discounted, tax, taxBeforeDiscounts: null }), tax_table_version: tax.table_version, reverse_charge: tax.reverse_charge };

      const invoiceId = subscriptionInvoiceId(subscription.id, next.start);
      const now = clock.now().toISOString();
      const create = subscriptionInvoiceCreation(
        {
          invoice_id: invoiceId,
          customer_id: subscription.customer_id as string,
          subscription_id: subscription.id,
          currency: plan.currency,
          tax_behavior: plan.taxBehavior,
          billing_reason: 'subscription_cycle',
          period_start: next.start,
          period_end: next.end,
          lines: lines.map((line) => ({ ...line, proration: false })),
          discounts: [],
          auto_charge: true,
          finalize: true,
          payment_method_id: null,
          dunning: DEFAULT_DUNNING,
        },
        now,
      );
      const lineIds = create.data.lines.map((line) => line.line_id);
      let state: InvoiceState = invoiceDecider.initialState();
      const decided = [...invoiceDecider.decide(create, state)];
      state = decided.reduce(invoiceDecider.evolve, state);
      const finalize = { type: 'FinalizeInvoice' as const, data: { invoice_id: invoiceId, number: `BENCH-${String(++number).padStart(6, '0')}`, now, line_ids: lineIds, totals: totalsData(lineIds, computed) } };
      decided.push(...invoiceDecider.decide(finalize, state));
      const stream = `invoice-${invoiceId}`;
      const metadata = { tenant_id: context.tenantId, environment: context.environment, actor: 'process:subscription_cycle', request_id: null, causation_id: null, correlation_id: null, occurred_at: now };
      const events: HistoryEvent[] = decided.map((event, revision) => ({ id: ids.ulid(), type: event.type, data: event.data, metadata: { ...metadata, schema_version: cell.upcasters.currentVersion(event.type) }, stream, revision }));
      const stored = await Promise.all(events.map(async (event) => ({ id: event.id, type: event.type, metadata: event.metadata, data: await cell.pii.encode(event.type, event.data) })));
      const doc = events.reduce<InvoiceResource | undefined>((resource, event) => invoiceView.apply(resource, asEventOf<InvoiceEvent>(event)), undefined)!;
      // Not awaited one by one: the page's appends commit together, as its upserts do.
      appends.push(
        cell.events.append(stream, stored, { expectedRevision: 'no_stream' }).then(({ position }) => {
          writes.push({ op: 'upsert' as const, collection: 'invoices', doc: { ...doc, tenant_id: context.tenantId, environment: context.environment, stream_revision: events.length - 1 }, position });
          if (floor) writes.push(...publicEventDocs(events, doc, context, ids, position));
        }),
      );
      if (floor) appends.push(renewal(cell.events, subscription, closed, next, metadata, ids).then((position) => writes.push(...cycleDocs(subscription, closed, next, position))));
      reservations.push({ id: ids.ulid(), type: 'InvoiceNumberReserved', metadata: { ...metadata, schema_version: 1 }, data: { invoice_id: invoiceId, sequence: number, number: `BENCH-${String(number).padStart(6, '0')}` } });
      invoices++;
    }
    if (floor) appends.push(cell.events.append(`invoice_number_sequence-bench`, reservations.splice(0), { expectedRevision: 'any' }).then(() => undefined));
    reservations.length = 0;
    await Promise.all(appends);
    await reads.commit(writes);
  });
  const ms = performance.now() - started;
  const peak = peakRssMiB();
  const liveHeapMiB = liveHeap();
  if (invoices !== subscriptions) throw new Error(`the baseline invoiced ${invoices} subscriptions of ${subscriptions}`);
  await app.close();
  return { invoices, ms, peakRssMiB: peak, startRssMiB, liveHeapMiB };
}

/**
 * The floor: the baseline plus the other writes that closing a period cannot skip, whatever the
 * design: the subscription's renewal event and document, the fired and the next period timer, the
 * invoice's number reservation (one append per page), and the two public events of the invoice.
 * No reads of streams, no commands, no processes: what the run writes, written as the baseline writes.
 */
const publicEventDocs = (events: readonly HistoryEvent[], invoice: Doc, context: RequestContext, ids: IdGenerator, position: bigint): Write[] =>
  events.map((event, sequence) => ({
    op: 'upsert' as const,
    collection: 'events',
    position,
    doc: {
      id: `evt_${ids.ulid()}`,
      object: 'event',
      type: event.type === 'InvoiceCreated' ? 'invoice.created' : 'invoice.finalized',
      occurred_at: event.metadata.occurred_at,
      created_at: event.metadata.occurred_at,
      schema_version: 1,
      tenant_id: context.tenantId,
      environment: context.environment,
      aggregate_type: 'invoice',
      aggregate_id: invoice.id,
      sequence,
      data: invoice,
    },
  }));

async function renewal(events: EventStore, subscription: Doc, closed: { end: string }, next: { start: string; end: string }, metadata: Omit<EventMetadata, 'schema_version'>, ids: IdGenerator): Promise<bigint> {
  const data = { subscription_id: subscription.id, period_start: next.start, period_end: next.end, terms: { plan_code: PLAN_CODE, quantities: subscription.quantities, coupons: [], prorations: [] }, commitment_end: null, closed_at: closed.end };
  const { position } = await events.append(`subscription-${subscription.id}`, [{ id: ids.ulid(), type: 'SubscriptionRenewed', data, metadata: { ...metadata, schema_version: 1 } }], { expectedRevision: 'any' });
  return position;
}

const cycleDocs = (subscription: Doc, closed: { end: string }, next: { start: string; end: string }, position: bigint): Write[] => {
  const stream = `subscription-${subscription.id}`;
  const timer = (due: string, status: string) => ({
    id: aggregateTimerDocId(stream, `period_end:${due}`),
    aggregate: 'subscription',
    aggregate_id: subscription.id,
    name: `period_end:${due}`,
    due_at: due,
    clock: 'system',
    status,
    command: { type: 'ClosePeriod', data: { subscription_id: subscription.id, period_end: due } },
    tenant_id: subscription.tenant_id,
    environment: subscription.environment,
  });
  return [
    { op: 'upsert', collection: 'subscriptions', position, doc: { ...subscription, current_period_start: next.start, current_period_end: next.end } },
    { op: 'upsert', collection: AGGREGATE_TIMERS, position, doc: timer(closed.end, 'fired') },
    { op: 'upsert', collection: AGGREGATE_TIMERS, position, doc: timer(next.end, 'pending') },
    { op: 'upsert', collection: AGGREGATE_TIMER_STREAMS, position, doc: { id: stream, pending: [`period_end:${next.end}`] } },
  ];
};

// ——— the driver ———

type Mode = 'seed' | 'full' | 'baseline' | 'floor' | 'paid';

/** Runs one case in a fresh Node process (this file, the same options), and answers what it sends back. */
function inChild<T>(mode: Mode, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--child', mode, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: mode === 'seed' ? process.execArgv : [...process.execArgv, ...CHILD_NODE_OPTIONS] });
    let answer: T | undefined;
    child.on('message', (message) => (answer = message as T));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && answer !== undefined ? resolve(answer) : reject(new Error(`bench child ${mode} exited with ${code}`))));
  });
}

async function child(mode: Mode, args: string[]): Promise<unknown> {
  const [dir, n] = [args[0], Number(args[1])];
  if (mode === 'seed') return seedBillingRun(n, { payments: args[2] === 'payments' });
  const measure = (folder: string) => (mode === 'full' || mode === 'paid' ? fullRun(folder, n, mode === 'full' ? 'open' : 'paid') : baseline(folder, n, mode === 'floor'));
  if (process.env.BENCH_IN_PLACE) return measure(dir);
  const copy = mkdtempSync(join(tmpdir(), 'tally-bench-billing-round-'));
  try {
    cpSync(dir, copy, { recursive: true });
    return await measure(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const perRenewal = ({ footprint, invoices }: CaseResult): string =>
  footprint ? `${(footprint.events / invoices).toFixed(1)} events in ${(footprint.appends / invoices).toFixed(1)} appends` : 'not counted';

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const rate = (r: CaseResult) => (r.invoices / r.ms) * 1000;
const mib = (value: number) => `${value.toFixed(0)}`;

export async function runBillingRunBench(sizes: readonly number[] = SIZES): Promise<string> {
  const rows: string[] = [];
  const notes: string[] = [];
  for (const size of sizes) {
    const seeded = await inChild<{ dataDir: string; seedMs: number; catchUpMs: number }>('seed', ['', String(size)]);
    const withPayments = await inChild<{ dataDir: string; seedMs: number; catchUpMs: number }>('seed', ['', String(size), 'payments']);
    try {
      notes.push(`${size.toLocaleString('en-US')} subscriptions seeded in ${(seeded.seedMs / 1000).toFixed(0)} s, read models caught up in ${(seeded.catchUpMs / 1000).toFixed(0)} s`);
      const rounds = size === Math.max(...sizes) && sizes.length > 1 ? 1 : ROUNDS;
      const baselines: CaseResult[] = [];
      const floors: CaseResult[] = [];
      const fulls: CaseResult[] = [];
      const paid: CaseResult[] = [];
      for (let i = 0; i < rounds; i++) {
        baselines.push(await inChild<CaseResult>('baseline', [seeded.dataDir, String(size)]));
        floors.push(await inChild<CaseResult>('floor', [seeded.dataDir, String(size)]));
        fulls.push(await inChild<CaseResult>('full', [seeded.dataDir, String(size)]));
        paid.push(await inChild<CaseResult>('paid', [withPayments.dataDir, String(size)]));
      }
      const shareOf = (runs: CaseResult[]) => median(runs.map((run, i) => rate(run) / rate(baselines[i])));
      const share = shareOf(fulls);
      const row = (name: string, runs: CaseResult[], goal: string, shareCell: string) => {
        const mid = [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor((runs.length - 1) / 2)];
        return `| ${name} | ${size.toLocaleString('en-US')} | ${mid.ms.toFixed(0)} | ${Math.round(rate(mid)).toLocaleString('en-US')} | ${shareCell} | ${mib(median(runs.map((r) => r.startRssMiB)))} | ${mib(median(runs.map((r) => r.peakRssMiB)))} | ${mib(median(runs.map((r) => r.liveHeapMiB)))} | ${goal} |`;
      };
      const fullRate = rate([...fulls].sort((a, b) => rate(a) - rate(b))[Math.floor((fulls.length - 1) / 2)]);
      rows.push(row('baseline: read, price, append, upsert; pages of 1000', baselines, '', ''));
      rows.push(row('floor: the baseline plus the run\'s other writes (renewal, subscription, timers, number, public events)', floors, '', `${(shareOf(floors) * 100).toFixed(0)}%`));
      rows.push(
        row(
          'billing run: due timers → finalised invoices and read models',
          fulls,
          `≥ ${TARGET_RATE.toLocaleString('en-US')} ${fullRate >= TARGET_RATE ? '✓' : '✗'}, ≥ ${(TARGET_SHARE * 100).toFixed(0)}% ${share >= TARGET_SHARE ? '✓' : '✗'}`,
          `${(share * 100).toFixed(0)}%`,
        ),
      );
      const floorShare = median(fulls.map((run, i) => rate(run) / rate(floors[i])));
      rows.push(row('billing run as a share of the floor', fulls, `≥ ${(FLOOR_SHARE * 100).toFixed(0)}% ${floorShare >= FLOOR_SHARE ? '✓' : '✗'}`, `${(floorShare * 100).toFixed(0)}% of floor`));
      const paidShare = median(paid.map((run, i) => rate(run) / rate(fulls[i])));
      rows.push(
        row(
          'billing run with payments: each invoice also paid by card through the sandbox provider',
          paid,
          `≥ ${(PAID_SHARE * 100).toFixed(0)}% of the run without payments ${paidShare >= PAID_SHARE ? '✓' : '✗'}`,
          `${(paidShare * 100).toFixed(0)}% of run`,
        ),
      );
      notes.push(`${size.toLocaleString('en-US')}: per renewal, ${perRenewal(fulls[0])} without payments and ${perRenewal(paid[0])} auto-charged (counted from the log)`);
      notes.push(`${size.toLocaleString('en-US')}: ${rounds} round${rounds > 1 ? 's' : ''} (baseline, floor, full run, then the full run with payments on a folder seeded alike with a card per customer)`);
      // A large size runs for many minutes: each size's rows as soon as they are measured.
      console.error(rows.slice(-4).join('\n'));
    } finally {
      rmSync(seeded.dataDir, { recursive: true, force: true });
      rmSync(withPayments.dataDir, { recursive: true, force: true });
    }
  }
  return [
    `${notes.join('; ')}. Each case in a fresh process (${CHILD_NODE_OPTIONS.join(' ')}) on a fresh copy of the seeded folder; peak RSS is VmHWM reset when the measured part starts; the live heap is what a full collection leaves at its end.`,
    '',
    '| Case | Invoices | Time (ms) | Invoices/s | % of baseline | RSS before (MiB) | Peak RSS (MiB) | Live heap (MiB) | Target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

if (require.main === module) {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    child(process.argv[childAt + 1] as Mode, process.argv.slice(childAt + 2)).then(
      (result) => (process.send ? process.send(result, () => process.exit(0)) : console.log(JSON.stringify(result))),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  } else {
    const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
    runBillingRunBench(sizes.length > 0 ? sizes : SIZES).then(
      (markdown) => console.log(markdown),
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  }
}
