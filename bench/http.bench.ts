/**
 * HTTP throughput of creating and retrieving a customer, each against three baselines in the same
 * run: a bare node:http handler, an Express handler and a NestJS handler that do nothing but answer
 * JSON (the last shows what the framework the service is built on costs by itself).
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/http.bench.js
 */
import { startBareExpress, startBareHttp, startBareNest } from './support/baseline-servers';
import { LOAD, measure, medianRun, type LoadCase, type LoadResult } from './support/load';
import type { RunningServer } from './support/listen';
import { startTally, type RunningTally } from './support/tally-server';

/** The target: creating a customer runs at ≥ 50% of the bare Express handler's throughput. */
const CREATE_TARGET = 0.5;

/** The same body on every request (autocannon's id replacement miscounts Content-Length). */
const CUSTOMER_BODY = JSON.stringify({ email: 'ada@example.com', name: 'Ada Lovelace', metadata: { plan: 'pro', source: 'bench' } });

interface Servers {
  bare: RunningServer;
  express: RunningServer;
  nest: RunningServer;
  tally: RunningTally;
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
 * The three servers under the same request, interleaved round by round so drift on the machine
 * hits all of them; Tally's worker settles after every run so its catch-up never overlaps the next.
 */
async function compare(method: 'GET' | 'POST', path: string, servers: Servers, target?: number): Promise<Row[]> {
  const body = method === 'POST' ? CUSTOMER_BODY : undefined;
  const cases: LoadCase[] = [
    { name: `${method} bare node:http`, url: servers.bare.url + path, method, body },
    { name: `${method} Express, no-op handler`, url: servers.express.url + path, method, body },
    { name: `${method} NestJS, no-op handler`, url: servers.nest.url + path, method, body },
    {
      name: `${method} Tally /v1/customers${method === 'GET' ? '/{id}' : ''}`,
      url: servers.tally.url + path,
      method,
      body,
      headers: { authorization: `Bearer ${servers.tally.sandboxKey}` },
    },
  ];
  const runs: LoadResult[][] = cases.map(() => []);
  for (let round = 0; round < LOAD.rounds; round++) {
    for (const [i, loadCase] of cases.entries()) {
      runs[i].push(await measure(loadCase));
      await servers.tally.settle();
    }
  }
  const [bare, express, nest, tally] = runs.map(medianRun);
  const ofExpress = (result: LoadResult) => result.requestsPerSecond / express.requestsPerSecond;
  return [{ result: bare }, { result: express }, { result: nest, ofExpress: ofExpress(nest) }, { result: tally, ofExpress: ofExpress(tally), target }];
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
  const tally = await startTally();
  try {
    const servers = { bare, express, nest, tally };
    const created = await compare('POST', '/v1/customers', servers, CREATE_TARGET);
    const id = await createOne(tally);
    await tally.settle();
    const retrieved = await compare('GET', `/v1/customers/${id}`, servers);
    const setup =
      `${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up and ${LOAD.seconds} s measured per run, ` +
      `median of ${LOAD.rounds} interleaved runs per case, loopback, load generator in a worker thread.`;
    return `${setup}\n\n${table([...created, ...retrieved])}`;
  } finally {
    await tally.close();
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
