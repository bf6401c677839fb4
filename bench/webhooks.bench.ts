/**
 * Webhook delivery on the embedded profile (one process: the API, its worker in two threads, as
 * `npm start` runs it, on the system clock): events committed at a steady rate across many
 * aggregates, each delivered to three endpoints on loopback; from each commit's acknowledgement to
 * its arrival at the receiver. Against a baseline measured in the same round: the same receivers
 * fed by a bare loop in this process that POSTs bodies of the same size at the same rate with
 * node:http.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/webhooks.bench.js [options]
 *
 * Tally runs in a child process of its own (a temporary data folder, one sandbox tenant with its
 * rate limits lifted through the operator API, `--aggregates` aggregates of the `--source` created
 * through the API); this process runs the three receivers (node:http on 127.0.0.1, each recording
 * when every request arrived, by `performance.now()`) and the client, which creates the three
 * endpoints (`POST /v1/admin/webhook-endpoints`, subscribed to the source's `*.updated`) and then
 * sends `PATCH` `{ name }` to the aggregates in turn, `--rate` a second in ticks of 10 ms, each when
 * due whatever the earlier ones are doing (open loop). Each name is unique, so a delivery's body
 * (`data.name`) names the commit it carries; its latency runs from that commit's 200 to its arrival.
 *
 * Sources (`--source`), the aggregates the events are committed to:
 * - coupons (the default): `POST /v1/coupons` `{ code, percent_off: '10', duration: 'once' }`, then
 *   `PATCH /v1/coupons/{id}` `{ name }` → `coupon.updated`. No personal data: a PATCH reads the
 *   coupon's short stream and appends one small event.
 * - customers: `POST /v1/customers`, then `PATCH /v1/customers/{id}` `{ name }` → `customer.updated`.
 *   A customer's personal data is sealed with its own key, so every PATCH re-reads and decrypts the
 *   customer's whole stream (about 1 ms of the request thread each): on 2 cores the API alone falls
 *   short of 1,000 commits/s and starves the worker. Kept to reproduce the earlier measurement.
 *
 * Cases, each in a fresh child:
 * - three: three endpoints answering 200;
 * - one-failing: the third answers 500 to every request (Tally retries it 5 s later, then after
 *   5 minutes); the latency is that of the other two;
 * - baseline: no Tally; the same receivers (all three answering 200), the bare loop sending
 *   `--rate` requests a second to each, with the body and headers of a delivery Tally sent in the
 *   same round (its name swapped for one of the same length), keep-alive sockets, at most as many
 *   per receiver as Tally's sender (PER_ENDPOINT_CONCURRENCY); each latency from the moment the
 *   request was due.
 * - commits-only (not run unless named in --cases): Tally with no endpoint, the same load: what the
 *   API alone sustains.
 *
 * Each case sends for `--warmup` + `--seconds` seconds; only commits of the last `--seconds`
 * count. Backlog: events committed and not yet received, per healthy endpoint, sampled every
 * 100 ms; its mean over the second around mid-run against its mean over the last second of the load.
 * A delivery not received `--drain` seconds after the load ended counts as infinitely late. Per 5 s
 * of the measured load: commits/s, deliveries/s per healthy endpoint, the p95 of its commits.
 *
 * For Tally the time is also split by stage, for the first endpoint's deliveries: when the source's
 * projection (which writes the public event the delivery carries) and the webhook outbox
 * (which writes the delivery) had committed the event, from their checkpoints sampled every 5 ms in
 * the child, and when the dispatcher began the attempt (the delivery's `attempted_at`). Also: the
 * cores each thread kept busy, each worker thread's longest event-loop stall and its SQLite
 * transactions (bench/support/thread-heap-probe.ts, preloaded into the child): the followers
 * thread runs the projections and the outbox, the services thread the dispatcher.
 *
 * Options, with their defaults: --source coupons (or customers) --rate 1000 (events/s) --aggregates
 * 1000 --seconds 20 --warmup 3 --drain 30 --rounds 1 --cases three,one-failing,baseline[,commits-only]
 * --cpu-prof <dir> (profiles every thread of the Tally children and prints their top self times over
 * the measured part).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { CellRegistry, readConfig } from '@tally/cells';
import { couponResource } from '@tally/catalog';
import { customerResource } from '@tally/customers';
import { WorkerThreadHost } from '@tally/runtime';
import { PER_ENDPOINT_CONCURRENCY, WEBHOOK_DELIVERIES, type DeliveryDoc } from '@tally/webhooks';
import { createApp } from '../apps/api/src/create-app';
import { formatSummary, readProfile, summarise } from './support/cpu-profile';
import { BenchChild, serveRequests } from './support/bench-child';
import { cpuMsByThread, sqliteTimes, threadHeaps, type SqliteTimes } from './support/thread-heap-probe';
import { answerJson, createBenchTenant } from './support/bench-tenant';
import { percentile, UsageClient } from './support/usage-load';

/** The targets of the issue, at 1,000 events/s across 1,000 aggregates to 3 endpoints. */
const TARGETS = { p95Ms: 100 } as const;
/** "The same p95" with one endpoint failing: within this share of the healthy case's p95, or this many ms of it (this machine is noisy). */
const SAME_P95 = { share: 0.25, ms: 10 } as const;
const TICK_MS = 10;
/** The windows of the measured load whose rates are shown. */
const WINDOW_MS = 5_000;
const ENDPOINTS = 3;
/** The outbox projection's checkpoint name (libs/webhooks/src/outbox/webhook-outbox.projection.ts). */
const OUTBOX_PROJECTION = 'webhook_outbox';

type CaseName = 'three' | 'one-failing' | 'baseline' | 'commits-only';
const ALL_CASES: CaseName[] = ['three', 'one-failing', 'baseline', 'commits-only'];
const DEFAULT_CASES: CaseName[] = ['three', 'one-failing', 'baseline'];
/** What each endpoint of a Tally case answers. */
const ENDPOINT_STATUSES: Record<Exclude<CaseName, 'baseline'>, number[]> = { three: [200, 200, 200], 'one-failing': [200, 200, 500], 'commits-only': [] };

type SourceName = 'coupons' | 'customers';
/**
 * The aggregates the events are committed to: how one is created (the `i`th), the path its PATCH
 * goes to, the public event that PATCH publishes, and the projection that writes that event.
 * Every PATCH sends `{ name }`, which both resources show as `data.name`.
 */
interface Source {
  /** The resource, in the plural, for the report. */
  plural: string;
  create: { path: string; body: (i: number) => Record<string, unknown> };
  patchPath: (id: string) => string;
  eventType: string;
  projection: string;
}
const SOURCES: Record<SourceName, Source> = {
  coupons: {
    plural: 'coupons',
    create: { path: '/v1/coupons', body: (i) => ({ code: `bench-${i}`, percent_off: '10', duration: 'once' }) },
    patchPath: (id) => `/v1/coupons/${id}`,
    eventType: 'coupon.updated',
    projection: couponResource.projection.name,
  },
  customers: {
    plural: 'customers',
    create: { path: '/v1/customers', body: (i) => ({ email: `hooks${i}@example.com`, name: `Hooks ${i}` }) },
    patchPath: (id) => `/v1/customers/${id}`,
    eventType: 'customer.updated',
    projection: customerResource.projection.name,
  },
};
const SOURCE_NAMES = Object.keys(SOURCES) as SourceName[];
const sourceOf = (name: string): SourceName => {
  if (!SOURCE_NAMES.includes(name as SourceName)) throw new Error(`unknown source ${name} (sources: ${SOURCE_NAMES.join(', ')})`);
  return name as SourceName;
};

interface Options {
  source: SourceName;
  rate: number;
  aggregates: number;
  seconds: number;
  warmup: number;
  drain: number;
  rounds: number;
  cases: Set<CaseName>;
  cpuProf: string | undefined;
}

const DEFAULTS = { rate: 1000, aggregates: 1000, seconds: 20, warmup: 3, drain: 30, rounds: 1 };

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: keyof typeof DEFAULTS): number => {
    const raw = value(name);
    if (raw === undefined) return DEFAULTS[name];
    const parsed = Number(raw.replace(/_/g, ''));
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} takes a number, not ${raw}`);
    return parsed;
  };
  const cases = new Set((value('cases') ?? DEFAULT_CASES.join(',')).split(',') as CaseName[]);
  for (const name of cases) if (!ALL_CASES.includes(name)) throw new Error(`unknown case ${name} (cases: ${ALL_CASES.join(', ')})`);
  return { source: sourceOf(value('source') ?? 'coupons'), rate: number('rate'), aggregates: number('aggregates'), seconds: number('seconds'), warmup: number('warmup'), drain: number('drain'), rounds: number('rounds'), cases, cpuProf: value('cpu-prof') };
}

/** Every commit's name: unique in a case, all of one length, so that every body has the same size. */
const NAME_DIGITS = 9;
const nameOf = (seq: number) => `b-${String(seq).padStart(NAME_DIGITS, '0')}`;
const seqOf = (name: unknown) => (typeof name === 'string' && name.startsWith('b-') && name.length === NAME_DIGITS + 2 ? Number(name.slice(2)) : NaN);
/** Epoch ms of a `performance.now()` of this process, to compare with the child's and the dispatcher's clocks. */
const epochOf = (at: number) => performance.timeOrigin + at;

// ——— Tally, in a child process ———

interface Ready {
  url: string;
  key: string;
  /** The ids of the aggregates created. */
  aggregates: string[];
}

/** The parts of Tally's worker, each in a thread of its own. */
const WORKER_PARTS = ['followers', 'services'] as const;
type WorkerPart = (typeof WORKER_PARTS)[number];

/** The child's CPU time so far, in ms: its main (request) thread, each worker thread, and the rest (V8's helpers, libuv's pool). */
interface Cpu {
  main: number;
  followers: number;
  services: number;
  rest: number;
}

/** A worker thread's longest loop stall and its SQLite transactions since the last question. */
type WorkerThreadStats = Partial<Record<WorkerPart, { maxLoopDelayMs: number; sqlite: SqliteTimes }>>;

/** Checkpoints of the source's projection and the webhook outbox, sampled in the child: [epoch ms, source's projection, outbox]. */
type CheckpointSample = [number, number, number];

type Request = { id: number; op: 'settle' | 'cpu' | 'sqlite' | 'worker' | 'mark' | 'watch' | 'unwatch' | 'positions' | 'attempts' | 'stop'; ids?: string[] };

async function serveTally(aggregates: number, sourceName: SourceName): Promise<void> {
  const source = SOURCES[sourceName];
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-webhooks-'));
  const operatorKey = randomUUID();
  const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded', TALLY_OPERATOR_KEY: operatorKey });
  const app = await createApp({ config, worker: 'thread' }, { logger: false });
  await app.listen(0, '127.0.0.1');
  const host = app.get(WorkerThreadHost);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const { key } = await createBenchTenant(url, operatorKey, () => host.settle());

  const api = new UsageClient(url, key, [], 8);
  const ids: string[] = new Array<string>(aggregates);
  let next = 0;
  const lane = async () => {
    while (next < aggregates) {
      const i = next++;
      ids[i] = (await answerJson(api.send('POST', source.create.path, JSON.stringify(source.create.body(i))), `creating ${source.plural}`)).id as string;
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  api.close();
  await host.settle();

  // The worker threads are idle now: they answer at once, with their kernel thread ids.
  const partOfTid = new Map((await threadHeaps({ threads: WORKER_PARTS.length, timeoutMs: 10_000 })).slice(1).map(({ tid, part }) => [tid, part as WorkerPart]));
  const cell = app.get(CellRegistry).cell('eu');
  const reader = new Database(join(dataDir, 'eu.sqlite'), { readonly: true, fileMustExist: true });
  const positionOf = reader.prepare('SELECT position FROM es_events WHERE event_id = ?').pluck();

  let samples: CheckpointSample[] = [];
  let watching: NodeJS.Timeout | undefined;
  let sampling = false;
  const sample = async () => {
    if (sampling) return;
    sampling = true;
    try {
      const [projected, outbox] = await Promise.all([cell.readModels.getCheckpoint(source.projection), cell.readModels.getCheckpoint(OUTBOX_PROJECTION)]);
      samples.push([performance.timeOrigin + performance.now(), Number(projected ?? -1n), Number(outbox ?? -1n)]);
    } finally {
      sampling = false;
    }
  };

  const handlers: Record<Exclude<Request['op'], 'stop'>, (request: Request) => Promise<unknown>> = {
    settle: () => host.settle(),
    cpu: async () => {
      const cpu: Cpu = { main: 0, followers: 0, services: 0, rest: 0 };
      for (const [tid, ms] of cpuMsByThread()) cpu[tid === process.pid ? 'main' : (partOfTid.get(tid) ?? 'rest')] += ms;
      return cpu;
    },
    sqlite: async () => sqliteTimes(),
    /** Each worker thread's longest loop stall and its SQLite transactions since the last question. */
    worker: async () => {
      const stats: WorkerThreadStats = {};
      for (const { part, maxLoopDelayMs, sqlite } of (await threadHeaps({ threads: WORKER_PARTS.length, timeoutMs: 30_000 })).slice(1)) stats[part as WorkerPart] = { maxLoopDelayMs, sqlite };
      return stats;
    },
    mark: async () => Number(process.hrtime.bigint() / 1000n),
    watch: async () => {
      samples = [];
      watching = setInterval(() => void sample(), 5);
    },
    unwatch: async () => {
      clearInterval(watching);
      return samples;
    },
    /** The log positions of these public events (`evt_<event id>`). */
    positions: async (request) => request.ids!.map((id) => (positionOf.get(id.replace(/^evt_/, '')) as number | undefined) ?? null),
    /** When the dispatcher began the first attempt of each of these deliveries (epoch ms), by the delivery records. */
    attempts: async (request) => {
      const ids = request.ids!;
      const at: (number | null)[] = [];
      for (let from = 0; from < ids.length; from += 500) {
        const docs = await cell.readModels.getMany<DeliveryDoc>(WEBHOOK_DELIVERIES, ids.slice(from, from + 500));
        for (const id of ids.slice(from, from + 500)) {
          const first = docs.get(id)?.attempts[0]?.attempted_at;
          at.push(first ? Date.parse(first) : null);
        }
      }
      return at;
    },
  };
  // The bench gone (it failed), this child goes too, and takes its data folder with it.
  process.on('disconnect', () => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  });
  serveRequests<Request>({ url, key, aggregates: ids } satisfies Ready, (request) => handlers[request.op as Exclude<Request['op'], 'stop'>](request), async () => {
    clearInterval(watching);
    reader.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}


// ——— the receivers, in this process ———

/** A delivery as it arrived: its body and headers, to send the same from the baseline's loop. */
interface Sample {
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A webhook receiver on 127.0.0.1: reads each body whole, JSON.parses it, and records when the
 * first request carrying each commit (by its name) arrived, then answers `status`.
 */
class Receiver {
  /** `performance.now()` of the first arrival of each commit, by its sequence number (NaN: none yet). */
  readonly firstArrival: Float64Array;
  /** The event id and delivery id of each commit's first arrival. */
  readonly eventIds: string[];
  readonly deliveryIds: string[];
  requests = 0;
  /** Commits received at least once. */
  received = 0;
  /** Requests that carried a commit already received (retries). */
  repeats = 0;
  /** Requests whose body named no commit of this case. */
  strays = 0;
  sample: Sample | undefined;

  private constructor(
    private readonly server: Server,
    readonly status: number,
    total: number,
  ) {
    this.firstArrival = new Float64Array(total).fill(NaN);
    this.eventIds = new Array<string>(total);
    this.deliveryIds = new Array<string>(total);
    server.on('request', (incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const at = performance.now();
        this.requests++;
        const body = Buffer.concat(chunks).toString('utf8');
        const event = JSON.parse(body) as { id?: string; data?: { name?: unknown } };
        const seq = seqOf(event.data?.name);
        if (!(seq >= 0 && seq < total)) this.strays++;
        else if (!Number.isNaN(this.firstArrival[seq])) this.repeats++;
        else {
          this.firstArrival[seq] = at;
          this.eventIds[seq] = event.id ?? '';
          this.deliveryIds[seq] = String(incoming.headers['service-delivery-id'] ?? '');
          this.received++;
          this.sample ??= { body, headers: incoming.headers };
        }
        response.writeHead(this.status, { 'content-type': 'text/plain' }).end(this.status < 300 ? 'ok' : 'not now');
      });
    });
  }

  static async start(status: number, total: number): Promise<Receiver> {
    const server = createServer({ keepAliveTimeout: 30_000 });
    const receiver = new Receiver(server, status, total);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  get healthy(): boolean {
    return this.status < 300;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

// ——— the load ———

/**
 * Sends commit `seq` for every seq in [0, total), `rate` a second in ticks of 10 ms, each tick's
 * sends when the tick is due (open loop). Resolves once every send has been answered.
 */
async function paced(rate: number, total: number, send: (seq: number, due: number) => Promise<void>, onTick?: (seq: number, now: number) => void): Promise<{ started: number; lateSendsMs: number; sentAt: number }> {
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let lateSendsMs = 0;
  let seq = 0;
  for (let tick = 0; seq < total; tick++) {
    const due = started + tick * TICK_MS;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    lateSendsMs = Math.max(lateSendsMs, performance.now() - due);
    const until = Math.min(total, Math.round((rate * (tick + 1) * TICK_MS) / 1000));
    onTick?.(seq, performance.now());
    for (; seq < until; seq++) pending.push(send(seq, due));
  }
  const sentAt = performance.now();
  await Promise.all(pending);
  return { started, lateSendsMs, sentAt };
}

/** Per healthy endpoint, every 100 ms: commits acknowledged (or, for the baseline, sent) and not yet received. */
interface BacklogSample {
  at: number;
  committed: number;
  backlog: number[];
}

function sampleBacklog(committed: () => number, receivers: readonly Receiver[]): { samples: BacklogSample[]; stop: () => void } {
  const samples: BacklogSample[] = [];
  const healthy = receivers.filter((r) => r.healthy);
  const timer = setInterval(() => {
    const done = committed();
    samples.push({ at: performance.now(), committed: done, backlog: healthy.map((r) => done - r.received) });
  }, 100);
  return { samples, stop: () => clearInterval(timer) };
}

interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function percentilesOf(values: number[]): Percentiles {
  const sorted = values.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

interface Result {
  name: CaseName;
  /** Commits (or baseline sends) in the measured part, and those acknowledged. */
  events: number;
  committed: number;
  /** Over the measured part: commits acknowledged per second, deliveries received per second (healthy endpoints together). */
  committedPerSecond: number;
  deliveriesPerSecond: number;
  healthyEndpoints: number;
  /** Commit to arrival, healthy endpoints together, ms; a delivery never received counts as infinite. */
  latency: Percentiles;
  /** The same per healthy endpoint. */
  perEndpoint: Percentiles[];
  undelivered: number;
  /** The mean backlog (the largest of the healthy endpoints') over the second around mid-run and the last second of the load. */
  backlogMid: number;
  backlogEnd: number;
  backlogMax: number;
  /** Per 5 s of the measured load, in order: commits acknowledged per second, deliveries received per second per healthy endpoint. */
  windows: { committed: number[]; delivered: number[]; p95: number[] };
  /** From the last acknowledgement until every healthy endpoint had every commit (NaN: not within --drain). */
  drainMs: number;
  lateSendsMs: number;
  /** Tally: due → 200 of the PATCHes of the measured part, and the ones not answered 200. */
  commitLatency?: Percentiles;
  commitErrors?: number;
  /** The failing endpoint: requests it got, and the commits they carried. */
  failing?: { requests: number; commits: number };
  stages?: Stages;
  cores?: Cpu & { driver: number };
  worker?: WorkerThreadStats;
  mainSqlite?: SqliteTimes;
  /** A delivery Tally sent, for the baseline of the round. */
  sample?: Sample;
}

/** Cumulative times from the commit's 200, first endpoint, measured commits (ms). */
interface Stages {
  count: number;
  projected: Percentiles;
  outbox: Percentiles;
  attempted: Percentiles;
  arrived: Percentiles;
}

function summariseCase(
  name: CaseName,
  options: Options,
  receivers: readonly Receiver[],
  commitAt: Float64Array,
  firstMeasured: number,
  measuredFrom: number,
  loadEnd: number,
  lastAck: number,
  backlog: BacklogSample[],
): Omit<Result, 'drainMs' | 'lateSendsMs'> {
  const total = commitAt.length;
  const healthy = receivers.filter((r) => r.healthy);
  const measured = total - firstMeasured;
  let committed = 0;
  for (let seq = firstMeasured; seq < total; seq++) if (!Number.isNaN(commitAt[seq])) committed++;
  const all: number[] = [];
  let undelivered = 0;
  const perEndpoint = healthy.map((receiver) => {
    const own: number[] = [];
    for (let seq = firstMeasured; seq < total; seq++) {
      if (Number.isNaN(commitAt[seq])) continue;
      const arrived = receiver.firstArrival[seq];
      if (Number.isNaN(arrived)) undelivered++;
      own.push(Number.isNaN(arrived) ? Infinity : arrived - commitAt[seq]);
    }
    all.push(...own);
    return percentilesOf(own);
  });
  // Deliveries received while the measured part's load ran (whatever commit they carried).
  let delivered = 0;
  for (const receiver of healthy) for (let seq = 0; seq < total; seq++) if (receiver.firstArrival[seq] >= measuredFrom && receiver.firstArrival[seq] <= loadEnd) delivered++;
  const seconds = (loadEnd - measuredFrom) / 1000;
  const meanBacklog = (from: number, to: number) => {
    const inside = backlog.filter((s) => s.at >= from && s.at <= to);
    return inside.length === 0 ? NaN : inside.reduce((sum, s) => sum + Math.max(0, ...s.backlog), 0) / inside.length;
  };
  const mid = (measuredFrom + loadEnd) / 2;
  const windows: Result['windows'] = { committed: [], delivered: [], p95: [] };
  for (let from = measuredFrom; from + WINDOW_MS / 2 < loadEnd; from += WINDOW_MS) {
    const to = Math.min(loadEnd, from + WINDOW_MS);
    const within = (at: number) => at >= from && at < to;
    windows.committed.push((commitAt.filter(within).length * 1000) / (to - from));
    windows.delivered.push(healthy.length === 0 ? NaN : (healthy.reduce((n, r) => n + r.firstArrival.filter(within).length, 0) * 1000) / (to - from) / healthy.length);
    // The latency of the commits acknowledged in this window.
    const latencies: number[] = [];
    for (let seq = firstMeasured; seq < total; seq++) if (within(commitAt[seq])) for (const r of healthy) latencies.push(Number.isNaN(r.firstArrival[seq]) ? Infinity : r.firstArrival[seq] - commitAt[seq]);
    windows.p95.push(percentilesOf(latencies).p95);
  }
  return {
    windows,
    name,
    events: measured,
    committed,
    committedPerSecond: committed / ((Math.max(lastAck, loadEnd) - measuredFrom) / 1000),
    deliveriesPerSecond: delivered / seconds,
    healthyEndpoints: healthy.length,
    latency: percentilesOf(all),
    perEndpoint,
    undelivered,
    backlogMid: meanBacklog(mid - 500, mid + 500),
    backlogEnd: meanBacklog(loadEnd - 1000, loadEnd),
    backlogMax: Math.max(0, ...backlog.filter((s) => s.at >= measuredFrom && s.at <= loadEnd).map((s) => Math.max(...s.backlog))),
    failing: receivers.some((r) => !r.healthy) ? { requests: receivers.filter((r) => !r.healthy).reduce((n, r) => n + r.requests, 0), commits: receivers.filter((r) => !r.healthy).reduce((n, r) => n + r.received, 0) } : undefined,
  };
}

/** Waits until every healthy receiver has received every commit acknowledged, or `drainS` seconds; returns when that happened (NaN: never). */
async function drained(receivers: readonly Receiver[], commitAt: Float64Array, drainS: number): Promise<number> {
  let acked = 0;
  for (const at of commitAt) if (!Number.isNaN(at)) acked++;
  const deadline = performance.now() + drainS * 1000;
  const healthy = receivers.filter((r) => r.healthy);
  while (performance.now() < deadline) {
    if (healthy.every((r) => r.received >= acked)) return Math.max(...healthy.map((r) => Math.max(...r.firstArrival.filter((at) => !Number.isNaN(at)))));
    await sleep(20);
  }
  return NaN;
}

const profiles: string[] = [];

async function tallyCase(name: Exclude<CaseName, 'baseline'>, options: Options): Promise<Result> {
  const total = Math.round(options.rate * (options.warmup + options.seconds));
  const firstMeasured = Math.round(options.rate * options.warmup);
  const receivers = await Promise.all(ENDPOINT_STATUSES[name].map((status) => Receiver.start(status, total)));
  const source = SOURCES[options.source];
  const child = await BenchChild.start<Ready, Request>(__filename, ['--child', String(options.aggregates), options.source], { label: 'Tally', profileDir: options.cpuProf });
  const admin = new UsageClient(child.ready.url, child.ready.key, [], 1);
  for (const receiver of receivers) {
    const answer = await admin.send('POST', '/v1/admin/webhook-endpoints', JSON.stringify({ url: receiver.url, events: [source.eventType] }));
    if (answer.status !== 200) throw new Error(`creating an endpoint answered ${answer.status}: ${answer.text}`);
  }
  admin.close();
  await child.ask('settle');
  // A fresh client: no socket that sat idle while the worker settled (the server may close it as it is reused).
  const api = new UsageClient(child.ready.url, child.ready.key, [], 64);

  const paths = child.ready.aggregates.map(source.patchPath);
  const commitAt = new Float64Array(total).fill(NaN);
  const dueAt = new Float64Array(total).fill(NaN);
  let acked = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const backlog = sampleBacklog(() => acked, receivers);
  await child.ask('watch');
  let measuring: Promise<{ fromUs: number; cpu: Cpu; client: NodeJS.CpuUsage; at: number }> | undefined;
  const load = await paced(
    options.rate,
    total,
    async (seq, due) => {
      dueAt[seq] = due;
      const answer = await api.send('PATCH', paths[seq % paths.length], JSON.stringify({ name: nameOf(seq) })).catch((error: Error) => ({ status: 0, text: String(error.message) }));
      if (answer.status === 200) {
        commitAt[seq] = performance.now();
        acked++;
      } else {
        errors++;
        if (errorSamples.length < 3) errorSamples.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      }
    },
    (seq, now) => {
      if (measuring || seq < firstMeasured) return;
      measuring = (async () => {
        const client = process.cpuUsage();
        await child.ask('sqlite');
        await child.ask('worker');
        return { fromUs: await child.ask<number>('mark'), cpu: await child.ask<Cpu>('cpu'), client, at: now };
      })();
    },
  );
  const loadEnd = performance.now();
  const start = await measuring!;
  const [toUs, cpu, mainSqlite, worker] = [await child.ask<number>('mark'), await child.ask<Cpu>('cpu'), await child.ask<SqliteTimes>('sqlite'), await child.ask<Result['worker']>('worker')];
  const client = process.cpuUsage(start.client);
  const ms = loadEnd - start.at;
  let lastAck = 0;
  for (const at of commitAt) if (!Number.isNaN(at)) lastAck = Math.max(lastAck, at);
  const lastArrival = await drained(receivers, commitAt, options.drain);
  backlog.stop();
  const checkpoints = await child.ask<CheckpointSample[]>('unwatch');
  if (errors > 0) console.error(`  ${errors} PATCHes not answered 200, e.g. ${errorSamples.join(' | ')}`);

  // Measured from the first tick of the measured part: its commits' due times.
  const measuredFrom = dueAt[firstMeasured];
  const summary = summariseCase(name, options, receivers, commitAt, firstMeasured, measuredFrom, load.sentAt, lastAck, backlog.samples);
  const commitLatencies: number[] = [];
  for (let seq = firstMeasured; seq < total; seq++) if (!Number.isNaN(commitAt[seq])) commitLatencies.push(commitAt[seq] - dueAt[seq]);

  // Stages, first endpoint: when the projections had committed each event, when the dispatcher began its attempt.
  const first = receivers[0] as Receiver | undefined;
  const seqs: number[] = [];
  if (first) for (let seq = firstMeasured; seq < total; seq++) if (!Number.isNaN(commitAt[seq]) && !Number.isNaN(first.firstArrival[seq])) seqs.push(seq);
  const positions = await child.ask<(number | null)[]>('positions', { ids: seqs.map((seq) => first!.eventIds[seq]) });
  const attempts = await child.ask<(number | null)[]>('attempts', { ids: seqs.map((seq) => first!.deliveryIds[seq]) });
  const passed = (column: 1 | 2, position: number | null) => {
    if (position === null) return NaN;
    let [low, high] = [0, checkpoints.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (checkpoints[mid][column] >= position) high = mid;
      else low = mid + 1;
    }
    return low < checkpoints.length ? checkpoints[low][0] : NaN;
  };
  const finite = (values: number[]) => values.filter((v) => Number.isFinite(v));
  const stages: Stages | undefined = first && {
    count: seqs.length,
    projected: percentilesOf(finite(seqs.map((seq, i) => passed(1, positions[i]) - epochOf(commitAt[seq])))),
    outbox: percentilesOf(finite(seqs.map((seq, i) => passed(2, positions[i]) - epochOf(commitAt[seq])))),
    attempted: percentilesOf(finite(seqs.map((seq, i) => (attempts[i] ?? NaN) - epochOf(commitAt[seq])))),
    arrived: percentilesOf(seqs.map((seq) => first.firstArrival[seq] - commitAt[seq])),
  };

  api.close();
  await child.stop();
  await Promise.all(receivers.map((r) => r.close()));
  if (child.profileDir) {
    const files = readdirSync(child.profileDir).filter((file) => file.includes(`.${child.pid}.`) && file.endsWith('.cpuprofile'));
    for (const file of files.sort()) {
      const threadId = file.split('.')[4];
      const thread = threadId === '0' ? 'main (request) thread' : `worker thread ${threadId}`;
      profiles.push(formatSummary(`${name}, measured part, ${thread} (${file})`, summarise(readProfile(join(child.profileDir, file)), { top: 25, fromUs: start.fromUs, toUs })));
    }
  }
  return {
    ...summary,
    drainMs: lastArrival - Math.max(lastAck, load.sentAt),
    lateSendsMs: load.lateSendsMs,
    commitLatency: percentilesOf(commitLatencies),
    commitErrors: errors,
    stages,
    cores: { main: (cpu.main - start.cpu.main) / ms, followers: (cpu.followers - start.cpu.followers) / ms, services: (cpu.services - start.cpu.services) / ms, rest: (cpu.rest - start.cpu.rest) / ms, driver: (client.user + client.system) / 1000 / ms },
    worker,
    mainSqlite,
    sample: first?.sample ?? receivers.find((r) => r.sample)?.sample,
  };
}

/** A body the shape and size of a delivery, for the baseline when no Tally case ran before it. */
function syntheticSample(sourceName: SourceName): Sample {
  const now = new Date().toISOString();
  const data =
    sourceName === 'customers'
      ? { id: `cus_${'0'.repeat(26)}`, object: 'customer', email: 'hooks0@example.com', name: nameOf(0), billing_address: null, metadata: {}, default_payment_method_id: null, tax_ids: [], created_at: now }
      : {
          id: `cpn_${'0'.repeat(26)}`,
          object: 'coupon',
          code: 'bench-0',
          name: nameOf(0),
          percent_off: '10',
          amount_off: null,
          currency: null,
          duration: 'once',
          duration_in_periods: null,
          max_redemptions: null,
          redeem_by: null,
          applies_to: null,
          times_redeemed: 0,
          valid: true,
          metadata: {},
          livemode: false,
          created_at: now,
          updated_at: now,
        };
  const type = SOURCES[sourceName].eventType;
  const event = {
    id: `evt_${'0'.repeat(26)}`,
    object: 'event',
    type,
    occurred_at: now,
    created_at: now,
    schema_version: 1,
    aggregate_type: data.object,
    aggregate_id: data.id,
    sequence: 1,
    data,
    previous_attributes: { name: nameOf(0) },
    request: { id: `req_${'0'.repeat(26)}` },
    tenant_id: `ten_${'0'.repeat(26)}`,
  };
  return { body: JSON.stringify(event), headers: { 'content-type': 'application/json', 'service-event-type': type } };
}

/**
 * The baseline: the same receivers (all answering 200), fed by a bare loop in this process that
 * POSTs `rate` requests a second to each with node:http, keep-alive, at most as many sockets per
 * receiver as Tally's sender; the body a delivery's, its name swapped for the commit's.
 */
async function baselineCase(options: Options, sample: Sample): Promise<Result> {
  const total = Math.round(options.rate * (options.warmup + options.seconds));
  const firstMeasured = Math.round(options.rate * options.warmup);
  const receivers = await Promise.all(Array.from({ length: ENDPOINTS }, () => Receiver.start(200, total)));
  const event = JSON.parse(sample.body) as { data: { name: string } };
  const marker = '#'.repeat(NAME_DIGITS + 2);
  const [head, tail] = JSON.stringify({ ...event, data: { ...event.data, name: marker } }).split(`"${marker}"`);
  const skip = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
  const headers = Object.fromEntries(Object.entries(sample.headers).filter(([name, value]) => !skip.has(name) && typeof value === 'string')) as Record<string, string>;
  const targets = receivers.map((receiver) => ({ url: new URL(receiver.url), agent: new Agent({ keepAlive: true, maxSockets: PER_ENDPOINT_CONCURRENCY }) }));
  const post = (target: (typeof targets)[number], body: string) =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request({ host: target.url.hostname, port: target.url.port, path: target.url.pathname, method: 'POST', agent: target.agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.resume();
        response.on('end', resolve);
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const sentAt = new Float64Array(total).fill(NaN);
  let sent = 0;
  let sendErrors = 0;
  const backlog = sampleBacklog(() => sent, receivers);
  let measuring: { client: NodeJS.CpuUsage; at: number } | undefined;
  const load = await paced(
    options.rate,
    total,
    async (seq, due) => {
      // The commit's moment is when its requests were due: the bare loop has nothing to commit.
      sentAt[seq] = due;
      sent++;
      const body = `${head}"${nameOf(seq)}"${tail}`;
      await Promise.all(targets.map((target) => post(target, body).catch(() => void sendErrors++)));
    },
    (seq, now) => {
      if (!measuring && seq >= firstMeasured) measuring = { client: process.cpuUsage(), at: now };
    },
  );
  const client = process.cpuUsage(measuring!.client);
  const ms = load.sentAt - measuring!.at;
  const lastArrival = await drained(receivers, sentAt, options.drain);
  backlog.stop();
  for (const target of targets) target.agent.destroy();
  await Promise.all(receivers.map((r) => r.close()));
  const measuredFrom = sentAt[firstMeasured];
  const summary = summariseCase('baseline', options, receivers, sentAt, firstMeasured, measuredFrom, load.sentAt, load.sentAt, backlog.samples);
  if (sendErrors > 0) console.error(`  ${sendErrors} baseline requests failed`);
  return { ...summary, drainMs: lastArrival - load.sentAt, lateSendsMs: load.lateSendsMs, cores: { main: NaN, followers: NaN, services: NaN, rest: NaN, driver: (client.user + client.system) / 1000 / ms } };
}

// ——— the report ———

const int = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const ms1 = (value: number) => (value === Infinity ? '∞' : Number.isFinite(value) ? value.toFixed(1) : '–');
const ratio = (value: number, of: number) => (Number.isFinite(value) && Number.isFinite(of) && of > 0 ? `${(value / of).toFixed(1)}×` : '–');
const mark = (ok: boolean) => (ok ? '✓' : '✗');
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const noGrowth = (r: Result, rate: number) => r.backlogEnd <= r.backlogMid + rate * 0.1 && r.undelivered === 0;
const sqliteText = (t: SqliteTimes) =>
  (['begin', 'commit'] as const).map((kind) => `${kind === 'begin' ? 'BEGIN IMMEDIATE' : 'COMMIT'} ${t[kind].count} × ${(t[kind].totalMs / Math.max(1, t[kind].count)).toFixed(2)} ms (longest ${t[kind].maxMs.toFixed(0)} ms, ${t[kind].over50} over 50 ms)`).join(', ');

interface Round {
  three?: Result;
  oneFailing?: Result;
  baseline?: Result;
  commitsOnly?: Result;
}

function report(options: Options, rounds: Round[]): string {
  const lines: string[] = [];
  lines.push(
    `${rounds.length} round${rounds.length === 1 ? '' : 's'}; ${int(options.rate)} events/s (PATCH ${SOURCES[options.source].patchPath('{id}')} { name }) across ${int(options.aggregates)} ${SOURCES[options.source].plural}, ${ENDPOINTS} endpoints on 127.0.0.1 subscribed to ${SOURCES[options.source].eventType}; ${options.warmup} s of warm-up, then ${options.seconds} s measured. Latency: from the commit's 200 (baseline: from the moment the request was due) to the first arrival at the receiver, ms; healthy endpoints together. Backlog: commits not yet received by the worst healthy endpoint, mean over the second around mid-run → over the last second of the load. Ratios: of the baseline's same percentile in the same round.`,
    '',
    '| Round | Case | Events | Committed/s | Deliveries/s (healthy endpoints) | p50 | p95 | p99 | max | p50, p95, p99 ÷ baseline | Backlog mid → end (max) | Drained after | Target |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---|',
  );
  rounds.forEach((round, i) => {
    const b = round.baseline;
    const row = (label: string, r: Result | undefined, target: string) => {
      if (!r) return;
      const ratios = b && r !== b ? `${ratio(r.latency.p50, b.latency.p50)}, ${ratio(r.latency.p95, b.latency.p95)}, ${ratio(r.latency.p99, b.latency.p99)}` : '';
      const share = r.committedPerSecond > 0 ? ` (${((r.deliveriesPerSecond / (r.committedPerSecond * r.healthyEndpoints)) * 100).toFixed(0)}% of ${r.healthyEndpoints} × committed)` : '';
      lines.push(
        `| ${i + 1} | ${label} | ${int(r.committed)}${r.committed < r.events ? ` of ${int(r.events)}` : ''} | ${int(r.committedPerSecond)} | ${int(r.deliveriesPerSecond)}${share} | ${ms1(r.latency.p50)} | ${ms1(r.latency.p95)} | ${ms1(r.latency.p99)} | ${ms1(r.latency.max)} | ${ratios} | ${int(r.backlogMid)} → ${int(r.backlogEnd)} (${int(r.backlogMax)}) | ${Number.isFinite(r.drainMs) ? `${int(r.drainMs)} ms` : `not in ${options.drain} s`}${r.undelivered > 0 ? `, ${int(r.undelivered)} never` : ''} | ${target} |`,
      );
    };
    row('baseline: bare node:http loop, 3 receivers', b, '');
    const three = round.three;
    if (three) row('Tally, three endpoints', three, `p95 ≤ ${TARGETS.p95Ms} ms ${mark(three.latency.p95 <= TARGETS.p95Ms)}, no backlog growth ${mark(noGrowth(three, options.rate))}`);
    const failing = round.oneFailing;
    if (failing) {
      const same = three ? Number.isFinite(three.latency.p95) && failing.latency.p95 <= Math.max(three.latency.p95 * (1 + SAME_P95.share), three.latency.p95 + SAME_P95.ms) : undefined;
      row('Tally, endpoint 3 answers 500 (endpoints 1 and 2)', failing, `p95 ≤ ${TARGETS.p95Ms} ms ${mark(failing.latency.p95 <= TARGETS.p95Ms)}${same === undefined ? '' : `, same p95 as three ${mark(same)} (${ratio(failing.latency.p95, three!.latency.p95)})`}, no backlog growth ${mark(noGrowth(failing, options.rate))}`);
    }
    const only = round.commitsOnly;
    if (only) lines.push(`| ${i + 1} | Tally, no endpoints (the commits alone) | ${int(only.committed)}${only.committed < only.events ? ` of ${int(only.events)}` : ''} | ${int(only.committedPerSecond)} |  |  |  |  |  |  |  |  |  |`);
  });
  if (rounds.length > 1) {
    const medianOf = (pick: (r: Round) => Result | undefined, field: (r: Result) => number) => median(rounds.flatMap((r) => (pick(r) ? [field(pick(r)!)] : [])));
    lines.push('', '| Median of the rounds | p50 | p95 | p99 |', '|---|---:|---:|---:|');
    for (const [label, pick] of [
      ['baseline', (r: Round) => r.baseline],
      ['three', (r: Round) => r.three],
      ['one-failing (endpoints 1 and 2)', (r: Round) => r.oneFailing],
    ] as const) {
      if (rounds.some((r) => pick(r))) lines.push(`| ${label} | ${ms1(medianOf(pick, (r) => r.latency.p50))} | ${ms1(medianOf(pick, (r) => r.latency.p95))} | ${ms1(medianOf(pick, (r) => r.latency.p99))} |`);
    }
  }

  lines.push('', 'Per case: the commits (due → 200 of the PATCH), each healthy endpoint, the failing one, the cores busy over the measured load.', '');
  rounds.forEach((round, i) => {
    for (const r of [round.baseline, round.three, round.oneFailing, round.commitsOnly]) {
      if (!r) continue;
      const notes = [
        r.commitLatency ? `PATCH due → 200: p50 ${ms1(r.commitLatency.p50)}, p95 ${ms1(r.commitLatency.p95)}, p99 ${ms1(r.commitLatency.p99)}, max ${ms1(r.commitLatency.max)} ms${r.commitErrors ? `, ${r.commitErrors} not 200` : ''}` : '',
        `sends at most ${ms1(r.lateSendsMs)} ms late`,
        `per ${WINDOW_MS / 1000} s of the load, ${r.name === 'baseline' ? 'sent' : 'committed'}/s ${r.windows.committed.map(int).join(', ')}${r.healthyEndpoints > 0 ? `, received/s per healthy endpoint ${r.windows.delivered.map(int).join(', ')}, p95 of the commits of each ${r.windows.p95.map(ms1).join(', ')} ms` : ''}`,
        r.perEndpoint.length === 0 ? '' : `per endpoint p50/p95/p99: ${r.perEndpoint.map((p) => `${ms1(p.p50)}/${ms1(p.p95)}/${ms1(p.p99)}`).join('; ')}`,
        r.failing ? `failing endpoint: ${int(r.failing.requests)} requests carrying ${int(r.failing.commits)} commits` : '',
        r.cores ? `cores busy: ${Number.isFinite(r.cores.main) ? `Tally request thread ${r.cores.main.toFixed(2)}, followers thread ${r.cores.followers.toFixed(2)}, services thread ${r.cores.services.toFixed(2)}, other threads ${r.cores.rest.toFixed(2)}, ` : ''}bench process (client and receivers) ${r.cores.driver.toFixed(2)}` : '',
        ...WORKER_PARTS.map((part) => {
          const thread = r.worker?.[part];
          return thread ? `${part} thread's longest loop stall ${int(thread.maxLoopDelayMs)} ms; its transactions: ${sqliteText(thread.sqlite)}` : '';
        }),
        r.mainSqlite ? `request thread's transactions: ${sqliteText(r.mainSqlite)}` : '',
      ].filter((note) => note !== '');
      lines.push(`- round ${i + 1}, ${r.name}: ${notes.join('; ')}.`);
    }
  });

  const staged = rounds.flatMap((round, i) => [round.three, round.oneFailing].flatMap((r) => (r?.stages ? [{ round: i + 1, r, s: r.stages }] : [])));
  if (staged.length > 0) {
    lines.push(
      '',
      "Where the time goes (first endpoint, measured commits; ms after the commit's 200, cumulative; the checkpoints sampled every 5 ms):",
      '',
      `| Round | Case | Deliveries | ${SOURCES[options.source].plural} projection committed, p50 / p95 | outbox committed the delivery, p50 / p95 | dispatcher began the attempt, p50 / p95 | arrived, p50 / p95 |`,
      '|---:|---|---:|---|---|---|---|',
      ...staged.map(({ round, r, s }) => `| ${round} | ${r.name} | ${int(s.count)} | ${ms1(s.projected.p50)} / ${ms1(s.projected.p95)} | ${ms1(s.outbox.p50)} / ${ms1(s.outbox.p95)} | ${ms1(s.attempted.p50)} / ${ms1(s.attempted.p95)} | ${ms1(s.arrived.p50)} / ${ms1(s.arrived.p95)} |`),
    );
  }
  if (profiles.length > 0) lines.push('', 'CPU profiles of the measured parts:', '', '```', ...profiles, '```');
  return lines.join('\n');
}

export async function runWebhooksBench(argv: readonly string[] = []): Promise<string> {
  const options = parseOptions(argv);
  if (options.cpuProf) mkdirSync(options.cpuProf, { recursive: true });
  const rounds: Round[] = [];
  const run = async (name: string, measure: () => Promise<Result>): Promise<Result> => {
    const started = performance.now();
    const result = await measure();
    const { sample: _sample, ...shown } = result;
    console.error(`  ${name}: ${JSON.stringify(shown, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return result;
  };
  let sample: Sample | undefined;
  for (let i = 0; i < options.rounds; i++) {
    console.error(`round ${i + 1} of ${options.rounds}`);
    const round: Round = {};
    // The Tally cases first: the baseline sends the body of a delivery they received.
    if (options.cases.has('three')) round.three = await run('three', () => tallyCase('three', options));
    if (options.cases.has('one-failing')) round.oneFailing = await run('one-failing', () => tallyCase('one-failing', options));
    sample = round.three?.sample ?? round.oneFailing?.sample ?? sample;
    if (options.cases.has('baseline')) round.baseline = await run('baseline', () => baselineCase(options, sample ?? syntheticSample(options.source)));
    if (options.cases.has('commits-only')) round.commitsOnly = await run('commits-only', () => tallyCase('commits-only', options));
    rounds.push(round);
  }
  if (sample) console.error(`  a delivery's body: ${Buffer.byteLength(sample.body)} bytes`);
  return report(options, rounds);
}

if (require.main === module) {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    serveTally(Number(process.argv[childAt + 1]), sourceOf(process.argv[childAt + 2])).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  } else {
    runWebhooksBench(process.argv.slice(2)).then(
      (markdown) => console.log(markdown),
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  }
}
