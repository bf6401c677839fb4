/**
 * HTTP throughput of creating and retrieving a customer, each against three baselines in the same
 * run: a bare node:http handler, an Express handler and a NestJS handler that do nothing but answer
 * JSON (the last shows what the framework the service is built on costs by itself). Tally runs
 * twice: with its worker in a thread (as `npm start` runs it) and on the request thread.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/http.bench.js
 */
import { startBareExpress, startBareHttp, startBareNest } from './support/baseline-servers';
import { LOAD, measure, medianRun, type LoadCase, type LoadResult } from './support/load';
import type { RunningServer } from './support/listen';
import { startTally, type RunningTally } from './support/tally-server';

/** The target (issue 10): with the worker off the request thread, a create runs at ≥ 25% of the bare Express handler's throughput. */
const CREATE_TARGET = 0.25;

/** The same body on every request (autocannon's id replacement miscounts Content-Length). */
const CUSTOMER_BODY = JSON.stringify({ email: 'ada@example.com', name: 'Ada Lovelace', metadata: { plan: 'pro', source: 'bench' } });

interface Servers {
  bare: RunningServer;
  express: RunningServer;
  nest: RunningServer;
  /** The worker in a thread of its own (`npm start`). */
  threaded: RunningTally;
  /** The worker on the request thread, for comparison. */
  inProcess: RunningTally;
}

interface Row {
  result: LoadResult;
  /** Share of the Express baseline's requests per second (Nest and Tally rows). */
  ofExpress?: number;
  target?: number;
}

async function createOne(tally: RunningTally): Promise<string> {
  const response = await fetch(`${tally.url}/v1/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tally.sandboxKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'grace@example.com', name: 'Grace Hopper', metadata: { plan: 'pro' } }),
  });
  if (response.status !== 200) throw new Error(`creating the customer to retrieve answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * The servers under the same request, interleaved round by round so drift on the machine hits all
 * of them; Tally's workers settle after every run so a catch-up never overlaps the next run.
 * `tallyPath` gives each Tally its own path (the customer it retrieves); the baselines take the threaded one's.
 */
async function compare(method: 'GET' | 'POST', tallyPath: (tally: RunningTally) => string, servers: Servers, target?: number): Promise<Row[]> {
  const body = method === 'POST' ? CUSTOMER_BODY : undefined;
  const path = tallyPath(servers.threaded);
  const route = `/v1/customers${method === 'GET' ? '/{id}' : ''}`;
  const tally = (name: string, server: RunningTally): LoadCase => ({
    name: `${method} Tally ${route}, ${name}`,
    url: server.url + tallyPath(server),
    method,
    body,
    headers: { authorization: `Bearer ${server.sandboxKey}` },
  });
  const cases: LoadCase[] = [
    { name: `${method} bare node:http`, url: servers.bare.url + path, method, body },
    { name: `${method} Express, no-op handler`, url: servers.express.url + path, method, body },
    { name: `${method} NestJS, no-op handler`, url: servers.nest.url + path, method, body },
    tally('worker in a thread', servers.threaded),
    tally('worker on the request thread', servers.inProcess),
  ];
  const runs: LoadResult[][] = cases.map(() => []);
  for (let round = 0; round < LOAD.rounds; round++) {
    for (const [i, loadCase] of cases.entries()) {
      runs[i].push(await measure(loadCase));
      await Promise.all([servers.threaded.settle(), servers.inProcess.settle()]);
    }
  }
  const [bare, express, nest, threaded, inProcess] = runs.map(medianRun);
  const ofExpress = (result: LoadResult) => result.requestsPerSecond / express.requestsPerSecond;
  return [
    { result: bare },
    { result: express },
    { result: nest, ofExpress: ofExpress(nest) },
    { result: threaded, ofExpress: ofExpress(threaded), target },
    { result: inProcess, ofExpress: ofExpress(inProcess) },
  ];
}

function table(rows: Row[]): string {
  const number = (n: number) => Math.round(n).toLocaleString('en-US');
  const lines = [
    '| Case | Requests | Requests/s | p50 (ms) | p99 (ms) | Mean (ms) | % of Express | Target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(({ result: r, ofExpress, target }) => {
      const share = ofExpress === undefined ? '' : `${(ofExpress * 100).toFixed(0)}%`;
      const goal = target === undefined || ofExpress === undefined ? '' : `≥ ${target * 100}% ${ofExpress >= target ? '✓' : '✗'}`;
      return `| ${r.name} | ${number(r.requests)} | ${number(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.averageMs.toFixed(2)} | ${share} | ${goal} |`;
    }),
  ];
  return lines.join('\n');
}

export async function runHttpBench(): Promise<string> {
  const bare = await startBareHttp();
  const express = await startBareExpress();
  const nest = await startBareNest();
  const threaded = await startTally('thread');
  const inProcess = await startTally('in-process');
  try {
    const servers = { bare, express, nest, threaded, inProcess };
    const created = await compare('POST', () => '/v1/customers', servers, CREATE_TARGET);
    const ids = new Map<RunningTally, string>();
    for (const tally of [threaded, inProcess]) {
      ids.set(tally, await createOne(tally));
      await tally.settle();
    }
    const retrieved = await compare('GET', (tally) => `/v1/customers/${ids.get(tally)}`, servers);
    const setup =
      `${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up and ${LOAD.seconds} s measured per run, ` +
      `median of ${LOAD.rounds} interleaved runs per case, loopback, load generator in a worker thread.`;
    return `${setup}\n\n${table([...created, ...retrieved])}`;
  } finally {
    await inProcess.close();
    await threaded.close();
    await nest.close();
    await express.close();
    await bare.close();
  }
}

if (require.main === module) {
  runHttpBench().then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
