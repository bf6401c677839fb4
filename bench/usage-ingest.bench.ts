/**
 * Usage ingestion through HTTP on the embedded profile (one process: the API, its worker in a
 * thread, as `npm start` runs it), batches of 1000 events, against a baseline measured in the same
 * run: a bare node:http server that JSON.parses each batch and INSERTs its body as one row
 * (better-sqlite3, WAL, `synchronous = NORMAL`), under the same client load.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/usage-ingest.bench.js [options]
 *
 * Cases, each server in a child process of its own (so no two share a heap), the client in this one:
 * - baseline: the bare server, `--connections` batches in flight (closed loop), `--batches` batches;
 * - acknowledged: Tally under the same load, timed from the first request to the last 202;
 * - end to end: the same, timed until every subscription's usage summary (which waits for the
 *   usage projection) counts every event sent, which it checks;
 * - latency: `--rate` batches a second for `--seconds`, sent on schedule (open loop), against
 *   the baseline under the same load;
 * - long run: `--events` events (or as many as `--budget` seconds allow), each send held back
 *   while more than `--max-lag` batches wait to be counted, so that the rate is the one the whole
 *   pipeline sustains; rates of the first and last 10%, resident set and heaps across it, the
 *   size of the SQLite files, the dedupe index's rows and pages.
 *
 * Every Tally row is also shown as a share of the baseline of the same round (the machines these
 * run on are shared and noisy), and the raw rows of every round follow, with the cores each thread
 * kept busy (/proc), the request thread's event-loop stalls and the time its SQLite transactions
 * waited to begin (the write lock) and to commit.
 *
 * Options, with their (small) defaults: --batches 200 (per throughput case) --warmup 20 --rounds 2
 * --connections 6 (batches in flight) --subscriptions 100 --rate 20 --seconds 15 (latency case)
 * --events 1000000 --budget 900 (seconds) --max-lag 50 (batches; long run) --ids random|ordered
 * (external ids: random UUIDs, or increasing, which the dedupe index inserts in order)
 * --cases baseline,ack,e2e,latency,long --cpu-prof <dir> (profiles both threads of the Tally
 * children and prints their top self times over the measured part).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { CellRegistry, readConfig } from '@tally/cells';
import { WorkerThreadHost } from '@tally/runtime';
import { USAGE_PROJECTION } from '@tally/usage';
import { ingestStreamOf } from '@tally/usage/usage-ingest-stream';
import { createApp } from '../apps/api/src/create-app';
import { listenOnLoopback } from './support/listen';
import { formatSummary, readProfile, summarise } from './support/cpu-profile';
import { BenchChild, serveRequests } from './support/bench-child';
import { cpuMsByThread, loopGaps, sqliteTimes, threadHeaps, type SqliteTimes, type ThreadHeap } from './support/thread-heap-probe';
import { answerJson, createBenchTenant } from './support/bench-tenant';
import { BATCH_EVENTS, METER, percentile, UsageClient, type ExternalIds } from './support/usage-load';

/** The targets of the issue (the latency one at 20 batches of 1000 a second, `--rate 20`). */
const TARGETS = { e2eShare: 0.35, e2eRate: 50_000, ackRate: 100_000, p99Ms: 100, longRunDrop: 0.2 } as const;

interface Options {
  batches: number;
  warmup: number;
  rounds: number;
  connections: number;
  subscriptions: number;
  rate: number;
  seconds: number;
  events: number;
  budget: number;
  maxLag: number;
  ids: ExternalIds;
  cases: Set<string>;
  cpuProf: string | undefined;
}

const DEFAULTS: Omit<Options, 'cases' | 'cpuProf' | 'ids'> = { batches: 200, warmup: 20, rounds: 2, connections: 6, subscriptions: 100, rate: 20, seconds: 15, events: 1_000_000, budget: 900, maxLag: 50 };
const ALL_CASES = ['baseline', 'ack', 'e2e', 'latency', 'long'];

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: keyof typeof DEFAULTS): number => {
    const raw = value(name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
    if (raw === undefined) return DEFAULTS[name];
    const parsed = Number(raw.replace(/_/g, ''));
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} takes a number, not ${raw}`);
    return parsed;
  };
  const ids = value('ids') ?? 'random';
  if (ids !== 'random' && ids !== 'ordered') throw new Error('--ids is random or ordered');
  const cases = new Set((value('cases') ?? ALL_CASES.join(',')).split(','));
  for (const name of cases) if (!ALL_CASES.includes(name)) throw new Error(`unknown case ${name} (cases: ${ALL_CASES.join(', ')})`);
  return {
    batches: number('batches'),
    warmup: number('warmup'),
    rounds: number('rounds'),
    connections: number('connections'),
    subscriptions: number('subscriptions'),
    rate: number('rate'),
    seconds: number('seconds'),
    events: number('events'),
    budget: number('budget'),
    maxLag: number('maxLag'),
    ids,
    cases,
    cpuProf: value('cpu-prof'),
  };
}

// ——— the servers, each in a child process ———

/** What a child sends once its server listens. */
interface Ready {
  url: string;
  key?: string;
  subscriptions: string[];
}

/** What a child answers about itself. */
interface Stats {
  rssMiB: number;
  peakRssMiB: number;
  /** The main thread's heap first, then the worker threads' (Tally only): the projections' thread, then the services'. */
  heaps: ThreadHeap[];
  /** Sizes of the files of the data folder, in MiB. */
  files: Record<string, number>;
}

interface Storage {
  rows: Record<string, number>;
  /** The largest tables and indexes of the region's file, in MiB (SQLite's dbstat). */
  btrees: { name: string; mib: number }[];
  /** PRAGMA cache_size of a connection as the store opens it (negative: KiB). */
  cacheSize: number;
}

type Request = { id: number; op: 'settle' | 'progress' | 'stats' | 'storage' | 'cpu' | 'gaps' | 'sqlite' | 'mark' | 'stop'; gc?: boolean; timeoutMs?: number };

/** CPU time of the server's threads so far, in ms: its main thread, the worker thread that runs the projections (Tally), and the rest (the services' thread, V8's helpers, libuv's pool). */
interface Cpu {
  main: number;
  worker: number;
  rest: number;
}

function cpuOf(workerTid: number | undefined): Cpu {
  let [main, worker, rest] = [0, 0, 0];
  for (const [tid, ms] of cpuMsByThread()) {
    if (tid === process.pid) main += ms;
    else if (tid === workerTid) worker += ms;
    else rest += ms;
  }
  return { main, worker, rest };
}

const MiB = 2 ** 20;
const rssMiB = () => process.memoryUsage().rss / MiB;
function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : rssMiB();
}

function fileSizes(dir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const name of readdirSync(dir)) {
    const stats = statSync(join(dir, name));
    if (stats.isFile()) sizes[name] = stats.size / MiB;
  }
  return sizes;
}

/** Answers the driver's requests until it asks the child to stop. */
function serve(ready: Ready, handlers: { [op in Exclude<Request['op'], 'stop'>]?: (request: Request) => Promise<unknown> }, stop: () => Promise<void>): void {
  const mark = async () => Number(process.hrtime.bigint() / 1000n);
  const answer = async (request: Request): Promise<unknown> => {
    if (request.op === 'mark') return mark();
    if (request.op === 'gaps') return loopGaps();
    if (request.op === 'sqlite') return sqliteTimes();
    const handler = handlers[request.op as Exclude<Request['op'], 'stop'>];
    if (!handler) throw new Error(`this child does not answer ${request.op}`);
    return handler(request);
  };
  serveRequests<Request>(ready, answer, stop);
}

type Child = BenchChild<Ready, Request>;

/**
 * The baseline: node:http alone, the body read whole, JSON.parsed, and stored as one row by one
 * prepared INSERT (its own transaction), answered 202 with the batch's row id and event count.
 */
async function serveBaseline(subscriptionCount: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-usage-baseline-'));
  const db = new Database(join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE batches (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO batches (body) VALUES (?)');
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const events = (JSON.parse(text) as { events?: unknown }).events;
      if (!Array.isArray(events)) {
        response.writeHead(400).end();
        return;
      }
      const id = insert.run(text).lastInsertRowid;
      const body = JSON.stringify({ object: 'usage_batch', id: `ubat_${id}`, accepted: events.length });
      response.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  const running = await listenOnLoopback(server);
  // Subscription ids of the same length as Tally's: the same bodies, byte for byte in size.
  const subscriptions = Array.from({ length: subscriptionCount }, (_, i) => `sub_${String(i).padStart(26, '0')}`);
  serve(
    { url: running.url, subscriptions },
    {
      stats: async (request) => ({ rssMiB: rssMiB(), peakRssMiB: peakRssMiB(), heaps: await threadHeaps({ gc: request.gc, threads: 0 }), files: fileSizes(dir) }) satisfies Stats,
      cpu: async () => cpuOf(undefined),
    },
    async () => {
      await running.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  );
}

/**
 * Tally as `npm start` runs it on the embedded profile (a temporary data folder, the worker in a
 * thread), with one tenant created and its limits lifted through the operator API, a plan with
 * one usage component, and `subscriptions` subscriptions of as many customers on the system clock.
 */
async function serveTally(subscriptionCount: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-usage-'));
  const operatorKey = randomUUID();
  const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded', TALLY_OPERATOR_KEY: operatorKey });
  const app = await createApp({ config, worker: 'thread' }, { logger: false });
  await app.listen(0, '127.0.0.1');
  const host = app.get(WorkerThreadHost);
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${port}`;

  const { tenantId, key } = await createBenchTenant(url, operatorKey, () => host.settle());

  const api = new UsageClient(url, key, [], 4);
  const plan = { code: 'metered', product_code: 'metered', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: METER, pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.001' }] } }] };
  await answerJson(api.send('POST', '/v1/plans', JSON.stringify(plan)), 'creating the plan');
  const subscriptions: string[] = [];
  for (let i = 0; i < subscriptionCount; i++) {
    const customer = await answerJson(api.send('POST', '/v1/customers', JSON.stringify({ email: `usage${i}@example.com`, name: `Usage ${i}` })), 'creating a customer');
    const subscription = await answerJson(api.send('POST', '/v1/subscriptions', JSON.stringify({ customer_id: customer.id, plan_code: plan.code })), 'creating a subscription');
    subscriptions.push(subscription.id as string);
  }
  api.close();
  await host.settle();

  // The worker threads are idle now: they answer at once, with their kernel thread ids; the first runs the projections.
  const workerTid = (await threadHeaps({ threads: 2, timeoutMs: 10_000 }))[1]?.tid;
  const cell = app.get(CellRegistry).cell('eu');
  const file = join(dataDir, 'eu.sqlite');
  // A connection of its own, read only, for what the store's API does not say: the ingest stream's revision at the checkpoint.
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  const countedAt = reader.prepare('SELECT revision + 1 FROM es_events WHERE stream = ? AND position <= ? ORDER BY revision DESC LIMIT 1').pluck();
  const stream = ingestStreamOf({ tenantId, environment: 'sandbox' });
  serve(
    { url, key, subscriptions },
    {
      settle: () => host.settle(),
      /** Batches the usage projection has counted: the ingest stream's events up to its checkpoint. */
      progress: async () => {
        const checkpoint = await cell.readModels.getCheckpoint(USAGE_PROJECTION);
        return checkpoint === undefined ? 0 : ((countedAt.get(stream, checkpoint) as number | undefined) ?? 0);
      },
      stats: async (request) => ({ rssMiB: rssMiB(), peakRssMiB: peakRssMiB(), heaps: await threadHeaps({ gc: request.gc, threads: 2, timeoutMs: request.timeoutMs }), files: fileSizes(dataDir) }) satisfies Stats,
      cpu: async () => cpuOf(workerTid),
      storage: async () => {
        const count = (table: string) => reader.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
        /** The dedupe key set's tail and its sealed runs. */
        const dedupeTables = () => reader.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND (name = 'rk_usage_dedupe' OR name LIKE 'rk_usage_dedupe@%')`).pluck().all() as string[];
        const btrees = reader.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE aggregate = TRUE GROUP BY name ORDER BY bytes DESC LIMIT 6').all() as { name: string; bytes: number }[];
        return {
          rows: { es_events: count('es_events'), rk_usage_dedupe: dedupeTables().reduce((keys, table) => keys + count(table), 0), rm_usage_buckets: count('rm_usage_buckets') },
          btrees: btrees.map(({ name, bytes }) => ({ name, mib: bytes / MiB })),
          cacheSize: reader.pragma('cache_size', { simple: true }) as number,
        } satisfies Storage;
      },
    },
    async () => {
      reader.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
}

// ——— the driver ———


/** Cores busy during a measured part: the server's threads and this process (the client). */
interface Cores {
  main: number;
  worker: number;
  rest: number;
  client: number;
}

interface Throughput {
  events: number;
  ms: number;
  cores?: Cores;
  /** The server's main thread's SQLite transactions during the measured part (Tally: the appends). */
  sqlite?: SqliteTimes;
}

interface E2e extends Throughput {
  /** From the first request to the last 202, then to the end of the summaries' reads. */
  lastAckMs: number;
  readsMs: number;
  retries: number;
}

interface Latency extends Throughput {
  /** The server's main thread: its longest event-loop stall during the paced load, and its stalls over 50 ms (ms). */
  stalls?: { maxMs: number; over50: number; over50Ms: number };
  p50: number;
  p95: number;
  p99: number;
  max: number;
  lateSendsMs: number;
  /** Tally: from the last 202 until the summaries counted every event. */
  countedAfterMs?: number;
}

/** A stretch of a child's CPU profile to summarise, in µs of the profile's clock. */
interface ProfileWindow {
  label: string;
  fromUs: number;
  toUs: number;
}

const rate = (r: Throughput) => (r.events / r.ms) * 1000;

/** The client of a fresh child: its warm-up sent, and on Tally counted, before the measured part. */
async function prepared(kind: 'baseline' | 'tally', options: Options): Promise<{ child: Child; client: UsageClient }> {
  const child = await BenchChild.start<Ready, Request>(__filename, ['--child', kind, String(options.subscriptions)], { label: kind, execArgv: ['--expose-gc'], profileDir: kind === 'tally' ? options.cpuProf : undefined });
  const client = new UsageClient(child.ready.url, child.ready.key, child.ready.subscriptions, Math.max(options.connections, 64), options.ids);
  if (options.warmup > 0) await client.closedLoop(options.warmup, options.connections);
  if (kind === 'tally') {
    await child.ask('settle');
    const counted = await child.ask<number>('progress');
    if (counted !== options.warmup) throw new Error(`the usage projection counted ${counted} batches of the warm-up's ${options.warmup}`);
  }
  return { child, client };
}

/** Marks the start of a measured part: its place in the child's profile and the CPU time so far on both sides. */
async function startMeasuring(child: Child): Promise<{ fromUs: number; cpu: Cpu; stop: () => Promise<{ toUs: number; cores: Cores; sqlite: SqliteTimes }> }> {
  await child.ask('sqlite');
  const [fromUs, cpu] = [await child.ask<number>('mark'), await child.ask<Cpu>('cpu')];
  const client = process.cpuUsage();
  const started = performance.now();
  return {
    fromUs,
    cpu,
    stop: async () => {
      const ms = performance.now() - started;
      const [toUs, after] = [await child.ask<number>('mark'), await child.ask<Cpu>('cpu')];
      const used = process.cpuUsage(client);
      const sqlite = await child.ask<SqliteTimes>('sqlite');
      return { toUs, sqlite, cores: { main: (after.main - cpu.main) / ms, worker: (after.worker - cpu.worker) / ms, rest: (after.rest - cpu.rest) / ms, client: (used.user + used.system) / 1000 / ms } };
    },
  };
}

const profiles: string[] = [];

/** Stops the child, then summarises its CPU profiles (if it had any) over the measured windows. */
async function finish(child: Child, client: UsageClient, label: string, windows: ProfileWindow[] = []): Promise<void> {
  client.close();
  await child.stop();
  if (!child.profileDir || windows.length === 0) return;
  const files = readdirSync(child.profileDir).filter((name) => name.includes(`.${child.pid}.`) && name.endsWith('.cpuprofile'));
  for (const name of files.sort()) {
    const thread = name.split('.')[4] === '0' ? 'main (request) thread' : 'worker thread';
    const profile = readProfile(join(child.profileDir, name));
    for (const window of windows) profiles.push(formatSummary(`${label}, ${window.label}, ${thread} (${name})`, summarise(profile, { top: 20, ...window })));
  }
}

async function throughputCase(kind: 'baseline' | 'tally', options: Options): Promise<Throughput> {
  const { child, client } = await prepared(kind, options);
  const measuring = await startMeasuring(child);
  const { events, ms } = await client.closedLoop(options.batches, options.connections);
  const { toUs, cores, sqlite } = await measuring.stop();
  await finish(child, client, `acknowledged, ${options.batches} batches`, [{ label: 'measured part', fromUs: measuring.fromUs, toUs }]);
  return { events, ms, cores, sqlite };
}

/** Checks that the usage summaries count every event sent to this client, warm-up included. */
async function readBack(client: UsageClient, options: Options): Promise<{ retries: number }> {
  const totals = await client.usageTotals(options.connections);
  if (totals.events !== client.eventsBuilt || totals.quantity !== client.quantityBuilt) {
    throw new Error(`the usage summaries count ${totals.events} events of quantity ${totals.quantity}; ${client.eventsBuilt} events of quantity ${client.quantityBuilt} were sent`);
  }
  return { retries: totals.retries };
}

async function endToEndCase(options: Options): Promise<E2e> {
  const { child, client } = await prepared('tally', options);
  const measuring = await startMeasuring(child);
  const started = performance.now();
  const { events, ms: lastAckMs } = await client.closedLoop(options.batches, options.connections);
  const lastAckUs = Number(process.hrtime.bigint() / 1000n);
  const { retries } = await readBack(client, options);
  const ms = performance.now() - started;
  const { toUs, cores, sqlite } = await measuring.stop();
  await finish(child, client, `end to end, ${options.batches} batches`, [
    { label: 'whole span', fromUs: measuring.fromUs, toUs },
    { label: 'after the last 202 (the summaries waiting for the projection)', fromUs: lastAckUs, toUs },
  ]);
  return { events, ms, lastAckMs, readsMs: ms - lastAckMs, retries, cores, sqlite };
}

async function latencyCase(kind: 'baseline' | 'tally', options: Options): Promise<Latency> {
  const { child, client } = await prepared(kind, options);
  const measuring = await startMeasuring(child);
  await child.ask('gaps');
  const paced = await client.paced(options.rate, options.seconds);
  const stalls = await child.ask<{ maxMs: number; over50: number; over50Ms: number }>('gaps');
  const { toUs, cores, sqlite } = await measuring.stop();
  let countedAfterMs: number | undefined;
  if (kind === 'tally') {
    const lastAck = performance.now();
    await readBack(client, options);
    countedAfterMs = performance.now() - lastAck;
  }
  await finish(child, client, `latency at ${options.rate} batches/s, ${kind}`, [{ label: 'paced load', fromUs: measuring.fromUs, toUs }]);
  const sorted = [...paced.latenciesMs].sort((a, b) => a - b);
  return { events: paced.events, ms: paced.ms, cores, sqlite, stalls, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted[sorted.length - 1], lateSendsMs: paced.lateSendsMs, countedAfterMs };
}

interface Sample {
  events: number;
  seconds: number;
  rssMiB: number;
  mainHeapMiB: number;
  workerHeapMiB: number;
  /** How long the worker thread took to answer, and the longest delay of its event loop since the last sample. */
  workerAnsweredAfterMs: number;
  workerMaxLoopDelayMs: number;
}

interface LongRun {
  events: number;
  ms: number;
  /** The budget ended the run before `--events`. */
  cutShort: boolean;
  /** Events/s of the 202s and of the counting, over the first and the last 10% of the events. */
  first: { acked: number; counted: number };
  last: { acked: number; counted: number };
  /** The same for each tenth of the events, in order, with the server threads' CPU time per 1000 events counted (ms). */
  tenths: { acked: number; counted: number; mainCpu: number; workerCpu: number }[];
  /** From the last 202 until every event was counted and the summaries read them. */
  drainMs: number;
  cores: Cores;
  /** The SQLite transactions of the main thread (the appends) and of the worker thread (the projections' commits) over the run. */
  sqlite: { main: SqliteTimes; worker: SqliteTimes | undefined };
  samples: Sample[];
  start: Stats;
  /** At the end, before and after a full collection in both threads. */
  end: Stats;
  endLive: Stats;
  storage: Storage;
}

async function longRun(options: Options): Promise<LongRun> {
  const { child, client } = await prepared('tally', options);
  const warm = options.warmup;
  const target = Math.ceil(options.events / BATCH_EVENTS);
  const start = await child.ask<Stats>('stats', { gc: true, timeoutMs: 60_000 });
  const measuring = await startMeasuring(child);
  const started = performance.now();
  const ackTimes: number[] = [];
  const countedTimes: number[] = [];
  let counted = 0;
  let done = false;
  let cutShort = false;
  // Follows the projection's progress: when each measured batch was counted (at the poll's 50 ms resolution).
  // The server's CPU time when each measured batch was counted: CPU per event is far less sensitive to the shared machine than events per second.
  const cpuAtCount: Cpu[] = [];
  const follow = (async () => {
    while (!done) {
      const now = (await child.ask<number>('progress')) - warm;
      const cpu = await child.ask<Cpu>('cpu');
      for (let batch = counted; batch < now; batch++) {
        countedTimes[batch] = performance.now() - started;
        cpuAtCount[batch] = cpu;
      }
      counted = Math.max(counted, now);
      await sleep(50);
    }
  })();
  const samples: Sample[] = [];
  const sampleSqlite: SqliteTimes[] = [];
  const sampling: Promise<void>[] = [];
  const sampleEvery = Math.max(1, Math.floor(target / 10));
  await client.closedLoop(target, options.connections, {
    beforeSend: async (batch) => {
      if ((performance.now() - started) / 1000 > options.budget) {
        cutShort = true;
        return false;
      }
      while (batch - counted > options.maxLag) await sleep(5);
      return true;
    },
    acked: (events, at) => {
      ackTimes.push(at - started);
      const batches = events / BATCH_EVENTS;
      if (batches % sampleEvery !== 0) return;
      const seconds = (performance.now() - started) / 1000;
      sampling.push(
        child.ask<Stats>('stats', { timeoutMs: 120_000 }).then((stats) => {
          const worker = stats.heaps[1];
          if (worker) sampleSqlite.push(worker.sqlite);
          samples.push({ events, seconds, rssMiB: stats.rssMiB, mainHeapMiB: stats.heaps[0].usedMiB, workerHeapMiB: worker?.usedMiB ?? NaN, workerAnsweredAfterMs: worker?.answeredAfterMs ?? NaN, workerMaxLoopDelayMs: worker?.maxLoopDelayMs ?? NaN });
        }),
      );
    },
  });
  const acked = ackTimes.length;
  const lastAck = performance.now();
  while (counted < acked) await sleep(20);
  done = true;
  await follow;
  await Promise.all(sampling);
  await readBack(client, options);
  const ms = performance.now() - started;
  const drainMs = performance.now() - lastAck;
  const { toUs, cores, sqlite } = await measuring.stop();
  const end = await child.ask<Stats>('stats', { timeoutMs: 60_000 });
  const endLive = await child.ask<Stats>('stats', { gc: true, timeoutMs: 60_000 });
  const storage = await child.ask<Storage>('storage');

  // The 202s arrive out of order across connections: ackTimes is in arrival order, which is what a slice of events means.
  const slice = Math.max(1, Math.floor(acked / 10));
  const rateOver = (times: number[], from: number, to: number) => ((to - from) * BATCH_EVENTS) / ((times[to - 1] - (from === 0 ? 0 : times[from - 1])) / 1000);
  const at = (msSinceStart: number) => measuring.fromUs + msSinceStart * 1000;
  await finish(child, client, `long run, ${acked * BATCH_EVENTS} events`, [
    { label: 'whole run', fromUs: measuring.fromUs, toUs },
    { label: 'first 10% counted', fromUs: measuring.fromUs, toUs: at(countedTimes[slice - 1]) },
    { label: 'last 10% counted', fromUs: at(countedTimes[acked - slice - 1]), toUs: at(countedTimes[acked - 1]) },
  ]);
  return {
    events: acked * BATCH_EVENTS,
    ms,
    cutShort,
    first: { acked: rateOver(ackTimes, 0, slice), counted: rateOver(countedTimes, 0, slice) },
    last: { acked: rateOver(ackTimes, acked - slice, acked), counted: rateOver(countedTimes, acked - slice, acked) },
    tenths: Array.from({ length: 10 }, (_, i) => {
      const [from, to] = [Math.round((acked * i) / 10), Math.round((acked * (i + 1)) / 10)];
      const cpu = (thread: 'main' | 'worker') => (cpuAtCount[to - 1][thread] - (from === 0 ? measuring.cpu[thread] : cpuAtCount[from - 1][thread])) / (to - from);
      return to > from ? { acked: rateOver(ackTimes, from, to), counted: rateOver(countedTimes, from, to), mainCpu: cpu('main'), workerCpu: cpu('worker') } : { acked: NaN, counted: NaN, mainCpu: NaN, workerCpu: NaN };
    }),
    drainMs,
    cores,
    // The worker's counters restarted when the first stats question reached it (before the measured part); each sample's answer took its share, so they are summed.
    sqlite: { main: sqlite, worker: sumTimes([...sampleSqlite, end.heaps[1]?.sqlite].filter((t): t is SqliteTimes => t !== undefined)) },
    samples: samples.sort((a, b) => a.events - b.events),
    start,
    end,
    endLive,
    storage,
  };
}

// ——— the report ———

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
const ms1 = (value: number) => value.toFixed(1);
const mark = (ok: boolean) => (ok ? '✓' : '✗');
function sumTimes(all: readonly SqliteTimes[]): SqliteTimes | undefined {
  if (all.length === 0) return undefined;
  const sum = (kind: keyof SqliteTimes) => ({
    count: all.reduce((n, t) => n + t[kind].count, 0),
    totalMs: all.reduce((n, t) => n + t[kind].totalMs, 0),
    maxMs: Math.max(...all.map((t) => t[kind].maxMs)),
    over50: all.reduce((n, t) => n + t[kind].over50, 0),
  });
  return { begin: sum('begin'), commit: sum('commit') };
}
const sqliteText = (t: SqliteTimes) =>
  (['begin', 'commit'] as const).map((kind) => `${kind === 'begin' ? 'BEGIN IMMEDIATE' : 'COMMIT'} ${t[kind].count} × ${(t[kind].totalMs / Math.max(1, t[kind].count)).toFixed(1)} ms (${t[kind].totalMs.toFixed(0)} ms in all, longest ${t[kind].maxMs.toFixed(0)} ms, ${t[kind].over50} over 50 ms)`).join(', ');
const coresText = (c: Cores) => `server main ${c.main.toFixed(2)}, worker thread ${c.worker.toFixed(2)}, other threads ${c.rest.toFixed(2)}, client ${c.client.toFixed(2)}`;

interface Round {
  baseline?: Throughput;
  ack?: Throughput;
  e2e?: E2e;
  baselineLatency?: Latency;
  latency?: Latency;
}

function report(options: Options, rounds: Round[], long: LongRun | undefined): string {
  const lines: string[] = [];
  const baselineRates = rounds.flatMap((r) => (r.baseline ? [rate(r.baseline)] : []));
  const baselineRate = baselineRates.length > 0 ? median(baselineRates) : NaN;
  /** The median of the rounds' shares of their own round's baseline. */
  const share = (pick: (r: Round) => Throughput | undefined) => median(rounds.flatMap((r) => (pick(r) && r.baseline ? [rate(pick(r)!) / rate(r.baseline)] : [])));
  const mid = <T extends Throughput>(runs: T[]): T => [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor((runs.length - 1) / 2)];

  lines.push(
    `${rounds.length} round${rounds.length === 1 ? '' : 's'}, each case in a child process of its own; ${options.subscriptions} subscriptions, batches of ${BATCH_EVENTS} events with ${options.ids} external ids, ${options.connections} batches in flight, ${options.warmup} batches of warm-up per case (counted before the measured part). Each row is the median round; a share is the median of the rounds' shares of the baseline measured in the same round.`,
    '',
    '| Case | Events | Time (ms) | Events/s | % of baseline | Target |',
    '|---|---:|---:|---:|---:|---|',
  );
  const baselines = rounds.flatMap((r) => (r.baseline ? [r.baseline] : []));
  if (baselines.length > 0) {
    const b = mid(baselines);
    lines.push(`| baseline: node:http, JSON.parse, one INSERT per batch (WAL, synchronous = NORMAL) | ${int(b.events)} | ${b.ms.toFixed(0)} | ${int(rate(b))} |  |  |`);
  }
  const acks = rounds.flatMap((r) => (r.ack ? [r.ack] : []));
  if (acks.length > 0) {
    const a = mid(acks);
    lines.push(`| Tally acknowledged: first request to last 202 | ${int(a.events)} | ${a.ms.toFixed(0)} | ${int(rate(a))} | ${pct(share((r) => r.ack))} | ≥ ${int(TARGETS.ackRate)} ${mark(rate(a) >= TARGETS.ackRate)} |`);
  }
  const e2es = rounds.flatMap((r) => (r.e2e ? [r.e2e] : []));
  if (e2es.length > 0) {
    const e = mid(e2es);
    const s = share((r) => r.e2e);
    lines.push(`| Tally end to end: first request to every event counted in the usage summaries | ${int(e.events)} | ${e.ms.toFixed(0)} | ${int(rate(e))} | ${pct(s)} | ≥ ${pct(TARGETS.e2eShare)} ${mark(s >= TARGETS.e2eShare)}, ≥ ${int(TARGETS.e2eRate)} ${mark(rate(e) >= TARGETS.e2eRate)} |`);
  }

  const latencies = rounds.flatMap((r) => (r.latency ? [r.latency] : []));
  const baselineLatencies = rounds.flatMap((r) => (r.baselineLatency ? [r.baselineLatency] : []));
  if (latencies.length + baselineLatencies.length > 0) {
    // The upper median: of two rounds, the worse p99.
    const pick = (runs: Latency[]) => [...runs].sort((a, b) => a.p99 - b.p99)[Math.ceil((runs.length - 1) / 2)];
    const p99Share = median(rounds.flatMap((r) => (r.latency && r.baselineLatency ? [r.latency.p99 / r.baselineLatency.p99] : [])));
    lines.push(
      '',
      `Latency: ${options.rate} batches a second (${int(options.rate * BATCH_EVENTS)} events/s) for ${options.seconds} s, sent on schedule; each latency from the moment its batch was due to its 202 (ms). The median round by p99 (of an even number of rounds, the worse of the middle two).`,
      '',
      '| Case | Events | Events/s sent | p50 | p95 | p99 | max | p99 ÷ baseline p99 | Target |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    if (baselineLatencies.length > 0) {
      const b = pick(baselineLatencies);
      lines.push(`| baseline | ${int(b.events)} | ${int((b.events / b.ms) * 1000)} | ${ms1(b.p50)} | ${ms1(b.p95)} | ${ms1(b.p99)} | ${ms1(b.max)} |  |  |`);
    }
    if (latencies.length > 0) {
      const t = pick(latencies);
      lines.push(`| Tally, POST /v1/usage/batch | ${int(t.events)} | ${int((t.events / t.ms) * 1000)} | ${ms1(t.p50)} | ${ms1(t.p95)} | ${ms1(t.p99)} | ${ms1(t.max)} | ${Number.isFinite(p99Share) ? `${p99Share.toFixed(1)}×` : ''} | p99 ≤ ${TARGETS.p99Ms} ms ${mark(t.p99 <= TARGETS.p99Ms)} |`);
      lines.push('', `Counted in the summaries ${latencies.map((l) => `${int(l.countedAfterMs ?? NaN)} ms`).join(', ')} after the last 202 (each round).`);
    }
  }

  if (long) {
    const drop = (first: number, last: number) => 1 - last / first;
    const countedDrop = drop(long.first.counted, long.last.counted);
    const ackedDrop = drop(long.first.acked, long.last.acked);
    lines.push(
      '',
      `Long run: ${int(long.events)} events stored${long.cutShort ? ` (cut short by the ${options.budget} s budget)` : ''} in ${(long.ms / 1000).toFixed(0)} s, each send held back while more than ${options.maxLag} batches waited to be counted; the shares are of the median baseline of this run (${int(baselineRate)} events/s).`,
      '',
      '| Long run | First 10% events/s | Last 10% events/s | Change | First ÷ baseline | Last ÷ baseline | Target |',
      '|---|---:|---:|---:|---:|---:|---|',
      `| counted (end to end) | ${int(long.first.counted)} | ${int(long.last.counted)} | ${pct(-countedDrop)} | ${pct(long.first.counted / baselineRate)} | ${pct(long.last.counted / baselineRate)} | fall ≤ ${pct(TARGETS.longRunDrop)} ${mark(countedDrop <= TARGETS.longRunDrop)} |`,
      `| acknowledged (202s) | ${int(long.first.acked)} | ${int(long.last.acked)} | ${pct(-ackedDrop)} | ${pct(long.first.acked / baselineRate)} | ${pct(long.last.acked / baselineRate)} |  |`,
      '',
      `Each tenth of the run: events/s counted ${long.tenths.map((t) => int(t.counted)).join(', ')}; acknowledged ${long.tenths.map((t) => int(t.acked)).join(', ')}; CPU ms per 1000 events counted, worker thread ${long.tenths.map((t) => t.workerCpu.toFixed(0)).join(', ')}, main thread ${long.tenths.map((t) => t.mainCpu.toFixed(0)).join(', ')}.`,
      '',
      '| Memory (MiB) | RSS | Main thread heap | Worker thread heap | Worker answered after (ms) | Worker loop delay, max (ms) |',
      '|---|---:|---:|---:|---:|---:|',
      `| start (after warm-up, after a full collection) | ${long.start.rssMiB.toFixed(0)} | ${long.start.heaps[0].usedMiB.toFixed(0)} | ${long.start.heaps[1]?.usedMiB.toFixed(0) ?? '?'} |  |  |`,
      ...long.samples.map((s) => `| at ${int(s.events)} events (${s.seconds.toFixed(0)} s) | ${s.rssMiB.toFixed(0)} | ${s.mainHeapMiB.toFixed(0)} | ${s.workerHeapMiB.toFixed(0)} | ${int(s.workerAnsweredAfterMs)} | ${int(s.workerMaxLoopDelayMs)} |`),
      `| end | ${long.end.rssMiB.toFixed(0)} | ${long.end.heaps[0].usedMiB.toFixed(0)} | ${long.end.heaps[1]?.usedMiB.toFixed(0) ?? '?'} |  |  |`,
      `| end, after a full collection in both threads | ${long.endLive.rssMiB.toFixed(0)} | ${long.endLive.heaps[0].usedMiB.toFixed(0)} | ${long.endLive.heaps[1]?.usedMiB.toFixed(0) ?? '?'} |  |  |`,
      `| peak RSS of the child (VmHWM) | ${long.endLive.peakRssMiB.toFixed(0)} |  |  |  |  |`,
      '',
      `Files (MiB): ${Object.entries(long.endLive.files)
        .filter(([, mib]) => mib >= 0.05)
        .map(([name, mib]) => `${name} ${mib.toFixed(0)}`)
        .join(', ')}. Rows: ${Object.entries(long.storage.rows)
        .map(([table, rows]) => `${table} ${int(rows)}`)
        .join(', ')}. Largest B-trees of eu.sqlite (MiB): ${long.storage.btrees.map((b) => `${b.name} ${b.mib.toFixed(0)}`).join(', ')}. SQLite page cache per connection: cache_size ${long.storage.cacheSize}. Counted ${(long.drainMs / 1000).toFixed(1)} s after the last 202. Cores busy over the run: ${coresText(long.cores)}. Transactions over the run, main thread (appends): ${sqliteText(long.sqlite.main)}; worker thread (projections): ${long.sqlite.worker ? sqliteText(long.sqlite.worker) : 'not answered'}.`,
    );
  }

  lines.push('', 'Raw, every round:', '', '| Round | Case | Events | Time (ms) | Events/s | % of the round\'s baseline | Notes |', '|---:|---|---:|---:|---:|---:|---|');
  rounds.forEach((r, i) => {
    const row = (name: string, t: Throughput | undefined, notes = '') => {
      if (!t) return;
      const of = r.baseline && t !== r.baseline ? pct(rate(t) / rate(r.baseline)) : '';
      lines.push(`| ${i + 1} | ${name} | ${int(t.events)} | ${t.ms.toFixed(0)} | ${int(rate(t))} | ${of} | ${[notes, t.cores ? `cores busy: ${coresText(t.cores)}` : '', t.sqlite && t.sqlite.begin.count > 0 ? `server main thread's transactions: ${sqliteText(t.sqlite)}` : ''].filter((n) => n !== '').join('; ')} |`);
    };
    row('baseline', r.baseline);
    row('acknowledged', r.ack);
    row('end to end', r.e2e, r.e2e ? `last 202 at ${r.e2e.lastAckMs.toFixed(0)} ms (${int((r.e2e.events / r.e2e.lastAckMs) * 1000)} events/s), summaries read in ${r.e2e.readsMs.toFixed(0)} ms, ${r.e2e.retries} retried 503s` : '');
    for (const [name, l] of [['baseline latency', r.baselineLatency], ['Tally latency', r.latency]] as const) {
      if (l) lines.push(`| ${i + 1} | ${name} | ${int(l.events)} | ${l.ms.toFixed(0)} | ${int((l.events / l.ms) * 1000)} |  | p50 ${ms1(l.p50)}, p95 ${ms1(l.p95)}, p99 ${ms1(l.p99)}, max ${ms1(l.max)} ms; sends at most ${ms1(l.lateSendsMs)} ms late${l.countedAfterMs !== undefined ? `; counted ${l.countedAfterMs.toFixed(0)} ms after the last 202` : ''}${l.stalls ? `; server main thread stalls: longest ${l.stalls.maxMs.toFixed(0)} ms, ${l.stalls.over50} over 50 ms (${l.stalls.over50Ms.toFixed(0)} ms in all)` : ''}${l.cores ? `; cores busy: ${coresText(l.cores)}` : ''}${l.sqlite && l.sqlite.begin.count > 0 ? `; server main thread's transactions: ${sqliteText(l.sqlite)}` : ''} |`);
    }
  });
  if (profiles.length > 0) lines.push('', 'CPU profiles of the measured parts:', '', '```', ...profiles, '```');
  return lines.join('\n');
}

export async function runUsageIngestBench(argv: readonly string[] = []): Promise<string> {
  const options = parseOptions(argv);
  if (options.cpuProf) mkdirSync(options.cpuProf, { recursive: true });
  const rounds: Round[] = [];
  const run = async <T>(name: string, measure: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await measure();
    console.error(`  ${name}: ${JSON.stringify(result, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return result;
  };
  for (let i = 0; i < options.rounds; i++) {
    console.error(`round ${i + 1} of ${options.rounds}`);
    const round: Round = {};
    if (options.cases.has('baseline')) round.baseline = await run('baseline', () => throughputCase('baseline', options));
    if (options.cases.has('ack')) round.ack = await run('acknowledged', () => throughputCase('tally', options));
    if (options.cases.has('e2e')) round.e2e = await run('end to end', () => endToEndCase(options));
    if (options.cases.has('latency')) {
      if (options.cases.has('baseline')) round.baselineLatency = await run('baseline latency', () => latencyCase('baseline', options));
      round.latency = await run('Tally latency', () => latencyCase('tally', options));
    }
    rounds.push(round);
  }
  let long: LongRun | undefined;
  if (options.cases.has('long') && options.events > 0) {
    console.error(`long run: ${int(options.events)} events, budget ${options.budget} s`);
    long = await run('long run', () => longRun(options));
  }
  return report(options, rounds, long);
}

if (require.main === module) {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    const kind = process.argv[childAt + 1];
    const subscriptions = Number(process.argv[childAt + 2]);
    (kind === 'baseline' ? serveBaseline(subscriptions) : serveTally(subscriptions)).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  } else {
    runUsageIngestBench(process.argv.slice(2)).then(
      (markdown) => console.log(markdown),
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  }
}
