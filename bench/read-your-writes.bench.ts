/**
 * Read-your-writes on `npm start`'s shape (embedded profile, the worker in its threads at their
 * lower priority): create-then-retrieve pairs and create-then-list, idle and under a steady load
 * of writes, counting the reads that missed the write, and timing the retrieves against retrieves
 * of a customer written long before, under the same load, in the same run. Once as Tally runs,
 * and once with reads that do not wait (`TALLY_READ_WAIT_MS=0`): what a read missed before.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/read-your-writes.bench.js
 */
import { startTally, type RunningTally } from './support/tally-server';

const PAIRS = 1_000;
const LOAD_WRITES_PER_SECOND = 50;

interface Timings {
  reads: number;
  misses: number;
  ms: number[];
}

const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

function client(tally: RunningTally) {
  const headers = { authorization: `Bearer ${tally.sandboxKey}`, 'content-type': 'application/json' };
  return {
    create: async (email: string) => {
      const response = await fetch(`${tally.url}/v1/customers`, { method: 'POST', headers, body: JSON.stringify({ email }) });
      if (response.status !== 200) throw new Error(`create answered ${response.status}`);
      return (await response.json()) as { id: string; email: string };
    },
    get: (path: string) => fetch(`${tally.url}${path}`, { headers }),
  };
}

/** Writes at a steady rate until stopped: the load the pairs run under. */
function steadyWrites(api: ReturnType<typeof client>, perSecond: number): () => Promise<number> {
  let stopped = false;
  let written = 0;
  const running = (async () => {
    for (let i = 0; !stopped; i++) {
      const next = new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
      await api.create(`load${i}@example.com`);
      written++;
      await next;
    }
  })();
  return async () => {
    stopped = true;
    await running;
    return written;
  };
}

async function pairs(api: ReturnType<typeof client>, label: string): Promise<{ retrieve: Timings; list: Timings }> {
  const retrieve: Timings = { reads: 0, misses: 0, ms: [] };
  const list: Timings = { reads: 0, misses: 0, ms: [] };
  for (let i = 0; i < PAIRS; i++) {
    const created = await api.create(`${label}${i}@example.com`);
    const started = performance.now();
    const response = await api.get(`/v1/customers/${created.id}`);
    retrieve.ms.push(performance.now() - started);
    retrieve.reads++;
    if (response.status !== 200 || ((await response.json()) as { email: string }).email !== created.email) retrieve.misses++;
    if (i % 10 === 0) {
      const listed = performance.now();
      const page = (await (await api.get(`/v1/customers?email[starts]=${label}${i}@&limit=1`)).json()) as { data: { id: string }[] };
      list.ms.push(performance.now() - listed);
      list.reads++;
      if (page.data[0]?.id !== created.id) list.misses++;
    }
  }
  return { retrieve, list };
}

async function oldRetrieves(api: ReturnType<typeof client>, id: string): Promise<Timings> {
  const timings: Timings = { reads: 0, misses: 0, ms: [] };
  for (let i = 0; i < PAIRS; i++) {
    const started = performance.now();
    const response = await api.get(`/v1/customers/${id}`);
    timings.ms.push(performance.now() - started);
    timings.reads++;
    if (response.status !== 200) timings.misses++;
    await response.arrayBuffer();
  }
  return timings;
}

async function waitCounts(tally: RunningTally): Promise<string> {
  const text = await (await fetch(`${tally.url}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith('read_your_writes_waits_total')).join(', ') || 'none';
}

async function measure(label: string, env: NodeJS.ProcessEnv, rows: string[]): Promise<string> {
  const tally = await startTally('thread', env);
  try {
    const api = client(tally);
    const old = await api.create('old@example.com');
    await tally.settle();
    const row = (name: string, t: Timings, baseline?: Timings) =>
      rows.push(
        `| ${label} | ${name} | ${t.reads} | ${t.misses} | ${percentile(t.ms, 50).toFixed(1)} | ${percentile(t.ms, 95).toFixed(1)} | ${percentile(t.ms, 99).toFixed(1)} | ${baseline ? (percentile(t.ms, 95) / percentile(baseline.ms, 95)).toFixed(2) + '×' : ''} |`,
      );
    const idleBaseline = await oldRetrieves(api, old.id);
    const idle = await pairs(api, 'idle');
    row('idle: retrieve of a customer written long before (baseline)', idleBaseline);
    row('idle: retrieve straight after its create', idle.retrieve, idleBaseline);
    row('idle: list straight after a create', idle.list, idleBaseline);
    const stop = steadyWrites(api, LOAD_WRITES_PER_SECOND);
    const loadedBaseline = await oldRetrieves(api, old.id);
    const loaded = await pairs(api, 'loaded');
    const written = await stop();
    row(`${LOAD_WRITES_PER_SECOND} writes/s: retrieve of a customer written long before (baseline)`, loadedBaseline);
    row(`${LOAD_WRITES_PER_SECOND} writes/s: retrieve straight after its create`, loaded.retrieve, loadedBaseline);
    row(`${LOAD_WRITES_PER_SECOND} writes/s: list straight after a create`, loaded.list, loadedBaseline);
    return `${label}: load writes made ${written}; waits counted in /metrics: ${await waitCounts(tally)}.`;
  } finally {
    await tally.close();
  }
}

export async function runReadYourWritesBench(): Promise<string> {
  const rows: string[] = [];
  const notes = [await measure('reads wait (as Tally runs)', {}, rows), await measure('reads do not wait', { TALLY_READ_WAIT_MS: '0' }, rows)];
  return [
    '| Reads | Case | Reads | Missed the write | p50 (ms) | p95 (ms) | p99 (ms) | p95 ÷ baseline |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...notes,
  ].join('\n');
}

if (require.main === module) {
  runReadYourWritesBench().then(
    (table) => console.log(table),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
