/**
 * Wallet debits through HTTP (issue 30, item 10): `POST /v1/wallets/{id}/debits` on one wallet
 * (every request appends to one stream, so concurrent ones meet at its revision and re-decide) and
 * spread over many wallets (each connection debits its own), against two baselines of the same
 * run: a plain authenticated read (`GET /v1/customers/{id}`) and a customer create (one append to
 * a new stream, the write the HTTP benchmark measures).
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/wallet-debits.bench.js
 *
 * `--processes N`: the same cases through 1, 2, … N API processes on one data folder (child
 * processes, see TallyProcesses), the load generator routing each wallet's debits to the process
 * that owns it (a consistent hash of the wallet id, as a load balancer would), the baselines
 * spread evenly; every process count takes its turn in every round.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { connectionShares, LOAD, measureTogether, medianRun, type LoadCase, type LoadResult } from './support/load';
import { cpuMsOf } from './support/cpu-time';
import { startTally } from './support/tally-server';
import { TallyProcesses } from './support/tally-processes';
import type { SqliteTimes } from './support/thread-heap-probe';
import { ownerOf, type DebitRoutes } from './support/wallet-routing';

/** The target: debits at 2,000 a second or more, on one wallet and on many. */
const TARGET_PER_SECOND = 2_000;
const WALLETS = 100;
const DEBIT = JSON.stringify({ amount: '0.01', reason: 'manual' });
const CUSTOMER = JSON.stringify({ email: 'ada@example.com', name: 'Ada Lovelace' });
const DEBIT_CLIENT = join(__dirname, 'support', 'wallet-debit-client.js');
const debitPath = (walletId: string) => `/v1/wallets/${walletId}/debits`;

/** Where the seeding and the load go: the API processes' base URLs, and the tenant's key. */
interface Api {
  urls: readonly string[];
  key: string;
}

/** What the cases read and debit. */
interface Seeded {
  customer: string;
  single: string;
  many: string[];
}

async function post(api: Api, path: string, body: object): Promise<{ id: string }> {
  const response = await fetch(`${api.urls[0]}${path}`, { method: 'POST', headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** A customer's wallet holding far more than a run can debit. */
async function fundedWallet(api: Api, customerId: string, currency: string): Promise<string> {
  const { id } = await post(api, `/v1/customers/${customerId}/wallets`, { currency });
  await post(api, `/v1/wallets/${id}/credits`, { amount: '100000000.00', reason: 'migration' });
  return id;
}

async function seed(api: Api): Promise<Seeded> {
  const customer = (await post(api, '/v1/customers', { email: 'wallets@example.com' })).id;
  const single = await fundedWallet(api, customer, 'EUR');
  const many: string[] = [];
  for (let i = 0; i < WALLETS; i++) many.push(await fundedWallet(api, (await post(api, '/v1/customers', { email: `w${i}@example.com` })).id, 'EUR'));
  return { customer, single, many };
}

/** One case through some of the API processes: its name, and how to measure it once. */
interface Case {
  name: string;
  measure: () => Promise<LoadResult>;
}

/**
 * The four cases through `urls`: the baselines' connections dealt out evenly, each wallet's debits
 * sent only to the process that owns it (the one wallet's: all ten connections to its owner). With
 * several processes, a fifth: the one wallet's debits dealt out to every process, as a load
 * balancer that does not route by wallet would (the processes' appends then meet at the wallet's
 * revision; a conflict that outlives the runtime's retries answers 409, counted apart).
 */
function casesThrough(urls: readonly string[], key: string, seeded: Seeded): Case[] {
  const headers = { authorization: `Bearer ${key}` };
  const shares = connectionShares(LOAD.connections, urls.length);
  const spread = (name: string, path: string, method: 'GET' | 'POST', body?: string, countsConflicts = false): Case => ({
    name,
    measure: () => measureTogether(name, urls.map((url, i): LoadCase => ({ name, url: `${url}${path}`, method, body, headers, connections: shares[i], countsConflicts }))),
  });
  const owned = urls.map((_, server) => seeded.many.filter((wallet) => ownerOf(wallet, urls.length) === server));
  const manyName = `POST /v1/wallets/{id}/debits, ${WALLETS} wallets`;
  const oneName = 'POST /v1/wallets/{id}/debits, one wallet';
  return [
    spread('GET /v1/customers/{id} (baseline: an authenticated read)', `/v1/customers/${seeded.customer}`, 'GET'),
    spread('POST /v1/customers (baseline: one append to a new stream)', '/v1/customers', 'POST', CUSTOMER),
    {
      name: oneName,
      measure: () => measureTogether(oneName, [{ name: oneName, url: `${urls[ownerOf(seeded.single, urls.length)]}${debitPath(seeded.single)}`, method: 'POST', body: DEBIT, headers }]),
    },
    {
      name: manyName,
      measure: () => {
        const routes: DebitRoutes = {};
        urls.forEach((url, i) => (routes[new URL(url).port] = { paths: owned[i].map(debitPath), connections: shares[i] }));
        // Read by each load generator thread as it starts; unchanged until the run ends.
        process.env.TALLY_BENCH_DEBIT_ROUTES = JSON.stringify(routes);
        const loads = urls.map((url, i): LoadCase => ({ name: manyName, url: `${url}${debitPath(owned[i][0])}`, method: 'POST', body: DEBIT, headers, connections: shares[i], setupClient: DEBIT_CLIENT }));
        return measureTogether(manyName, loads);
      },
    },
    ...(urls.length > 1 ? [spread(`${oneName}, not routed (dealt out to every process)`, debitPath(seeded.single), 'POST', DEBIT, true)] : []),
  ];
}

const number = (n: number) => Math.round(n).toLocaleString('en-US');
const targetCell = (r: LoadResult) => `≥ ${number(TARGET_PER_SECOND)}/s ${r.requestsPerSecond >= TARGET_PER_SECOND ? '✓' : '✗'}`;

/** The medians of each case over `rounds` (each a list of the cases' results in one order). */
function mediansOf<T extends LoadResult>(rounds: readonly (readonly T[])[]): T[] {
  return rounds[0].map((_, i) => medianRun(rounds.map((round) => round[i])));
}

/** One Tally process (the load generator in a worker thread of the same process), as `npm start` runs it. */
async function runInOneProcess(): Promise<string> {
  const tally = await startTally('thread');
  try {
    const seeded = await seed({ urls: [tally.url], key: tally.sandboxKey });
    await tally.settle();
    process.env.TALLY_BENCH_DEBIT_BODY = DEBIT;
    const cases = casesThrough([tally.url], tally.sandboxKey, seeded);
    const rounds: LoadResult[][] = [];
    for (let round = 0; round < LOAD.rounds; round++) {
      const results: LoadResult[] = [];
      for (const loadCase of cases) {
        results.push(await loadCase.measure());
        await tally.settle();
      }
      rounds.push(results);
    }
    const [read, create, one, spread] = mediansOf(rounds);
    const row = (r: LoadResult, target: boolean) =>
      `| ${r.name} | ${number(r.requests)} | ${number(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${(r.requestsPerSecond / read.requestsPerSecond).toFixed(2)} | ${(r.requestsPerSecond / create.requestsPerSecond).toFixed(2)} | ${target ? targetCell(r) : ''} |`;
    const setup =
      `${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up and ${LOAD.seconds} s measured per run, median of ${LOAD.rounds} interleaved runs per case, ` +
      `loopback, the worker in a thread, the load generator in a worker thread; debits of 0.01 from wallets funded far beyond the run.`;
    return [
      setup,
      '',
      '| Case | Requests | Requests/s | p50 (ms) | p99 (ms) | × the read | × the create | Target |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      row(read, false),
      row(create, false),
      row(one, true),
      row(spread, true),
    ].join('\n');
  } finally {
    await tally.close();
  }
}

/** A run, and the CPU spent on it. */
interface BusyResult extends LoadResult {
  /** Cores busy while the load ran (warm-up included): the first process (API and worker threads), the other API processes together, the bench (the load generator's threads). */
  cores: { first: number; others: number; bench: number };
  /** CPU of every Tally process per request answered (warm-up included), until the worker had handled every write of the run, in ms. */
  tallyCpuMsPerRequest: number;
  /** The API processes' request threads' SQLite transactions per request answered (warm-up included): how many, and the time their BEGIN IMMEDIATE waited for the write lock, in ms. */
  commitsPerRequest: number;
  lockWaitMsPerRequest: number;
}

async function measureBusy(processes: TallyProcesses, loadCase: Case): Promise<BusyResult> {
  const startedAt = performance.now();
  await processes.sqliteTimes();
  const [tallyBefore, benchBefore] = [processes.cpuMs(), cpuMsOf('/proc/self/stat')];
  const result = await loadCase.measure();
  const transactions = await processes.sqliteTimes();
  const elapsed = performance.now() - startedAt;
  const [tallyLoaded, benchLoaded] = [processes.cpuMs(), cpuMsOf('/proc/self/stat')];
  await processes.settle();
  const spent = (now: readonly number[]) => now.map((ms, i) => ms - tallyBefore[i]);
  const loaded = spent(tallyLoaded);
  const settled = spent(processes.cpuMs()).reduce((a, b) => a + b, 0);
  const answered = result.requests + result.refused + result.warmupRequests;
  const perRequest = (of: (times: SqliteTimes) => number) => transactions.reduce((sum, times) => sum + of(times), 0) / answered;
  return {
    ...result,
    cores: { first: loaded[0] / elapsed, others: loaded.slice(1).reduce((a, b) => a + b, 0) / elapsed, bench: (benchLoaded - benchBefore) / elapsed },
    tallyCpuMsPerRequest: settled / answered,
    commitsPerRequest: perRequest((times) => times.commit.count),
    lockWaitMsPerRequest: perRequest((times) => times.begin.totalMs),
  };
}

/** The cases through 1, 2, … `count` API processes on one data folder, every count in every round. */
async function runInProcesses(count: number): Promise<string> {
  const loadBefore = loadavg()[0];
  const processes = await TallyProcesses.start(count);
  try {
    const seeded = await seed({ urls: processes.urls, key: processes.sandboxKey });
    await processes.settle();
    process.env.TALLY_BENCH_DEBIT_BODY = DEBIT;
    const counts = Array.from({ length: count }, (_, i) => i + 1);
    const cases = counts.map((n) => casesThrough(processes.urls.slice(0, n), processes.sandboxKey, seeded));
    const rounds: BusyResult[][][] = counts.map(() => []);
    for (let round = 0; round < LOAD.rounds; round++) {
      for (const [i, ofCount] of cases.entries()) {
        const results: BusyResult[] = [];
        for (const loadCase of ofCount) results.push(await measureBusy(processes, loadCase));
        rounds[i].push(results);
      }
    }
    const medians = rounds.map(mediansOf);
    const loadAfter = loadavg()[0];
    const withOne = (r: BusyResult) => medians[0].find((one) => one.name === r.name);
    const rows = medians.flatMap(([read, create, ...debits], i) =>
      [read, create, ...debits].map((r) => {
        const one = withOne(r);
        const refused = r.refused > 0 ? ` (${number(r.refused)} answered 409)` : '';
        return (
          `| ${counts[i]} | ${r.name}${refused} | ${number(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${(r.requestsPerSecond / read.requestsPerSecond).toFixed(2)} | ${(r.requestsPerSecond / create.requestsPerSecond).toFixed(2)} | ` +
          `${one ? (r.requestsPerSecond / one.requestsPerSecond).toFixed(2) : ''} | ${r.cores.first.toFixed(2)} / ${r.cores.others.toFixed(2)} / ${r.cores.bench.toFixed(2)} | ${r.tallyCpuMsPerRequest.toFixed(2)} | ` +
          `${r.commitsPerRequest.toFixed(2)} | ${r.lockWaitMsPerRequest.toFixed(2)} | ${debits.includes(r) ? targetCell(r) : ''} |`
        );
      }),
    );
    const setup =
      `${count} API processes on one data folder (the first with the worker in its threads), ${LOAD.connections} connections in all (the baselines' dealt out evenly over the processes used, ` +
      `each wallet's to the process that owns it), ${LOAD.warmupSeconds} s warm-up and ${LOAD.seconds} s measured per run, median of ${LOAD.rounds} interleaved runs per case and process count; ` +
      `the load generator in a worker thread per process used, in the bench's own process. Load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`;
    return [
      setup,
      '',
      '| API processes | Case | Requests/s | p50 (ms) | p99 (ms) | × the read | × the create | × with 1 process | Cores busy: first / other APIs / load generator | Tally CPU per request (ms) | API commits per request | Write-lock wait per request (ms) | Target |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|',
      ...rows,
    ].join('\n');
  } finally {
    await processes.close();
  }
}

/** `--processes N` measures through 1 to N API processes; without it, in one process as `npm start` runs. */
export function runWalletDebitsBench(args: readonly string[] = []): Promise<string> {
  const at = args.indexOf('--processes');
  if (at === -1) return runInOneProcess();
  const count = Number(args[at + 1]);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--processes takes a whole number of processes, not ${args[at + 1]}`);
  return runInProcesses(count);
}

if (require.main === module) {
  runWalletDebitsBench(process.argv.slice(2)).then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
