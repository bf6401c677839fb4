import autocannon from 'autocannon';

/** One load-test case: where to send what. */
export interface LoadCase {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** The absolute path of a compiled module whose export sets each connection up (autocannon's `setupClient`, which a worker thread requires). */
  setupClient?: string;
  /** Keep-alive connections of this case; LOAD.connections unless said. */
  connections?: number;
  /** Answers 409 (a refusal, such as a conflict that outlived its retries) are counted in `refused`, not a failure of the run. */
  countsConflicts?: boolean;
}

export interface LoadResult {
  name: string;
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, at autocannon's 1 ms resolution. */
  p50: number;
  p99: number;
  averageMs: number;
  /** Answers 409 of a case that counts them (left out of `requestsPerSecond`). */
  refused: number;
  /** Requests answered during the warm-up (not in `requests`). */
  warmupRequests: number;
}

/**
 * Every case runs with the same load: 10 keep-alive connections, a warm-up, then the measured
 * run; the comparisons repeat each case `rounds` times, interleaved, and keep the median.
 */
export const LOAD = { connections: 10, warmupSeconds: 1, seconds: 3, rounds: 3 } as const;

/**
 * Runs autocannon in a worker thread (the servers under test keep the main thread to
 * themselves) and fails on any error or non-2xx answer, so a broken case cannot pass as fast.
 */
export async function measure(target: LoadCase): Promise<LoadResult> {
  const connections = target.connections ?? LOAD.connections;
  const result = await autocannon({
    url: target.url,
    method: target.method,
    body: target.body,
    headers: target.body === undefined ? target.headers : { 'content-type': 'application/json', ...target.headers },
    connections,
    duration: LOAD.seconds,
    workers: 1,
    ...(target.setupClient && { setupClient: target.setupClient }),
    warmup: { connections, duration: LOAD.warmupSeconds },
  });
  const refused = target.countsConflicts ? (result.statusCodeStats['409']?.count ?? 0) : 0;
  if (result.errors + result.timeouts + result.non2xx - refused > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers (${codes})`);
  }
  const answered = result.requests.total;
  return {
    name: target.name,
    requests: answered - refused,
    requestsPerSecond: answered === 0 ? 0 : result.requests.average * ((answered - refused) / answered),
    p50: result.latency.p50,
    p99: result.latency.p99,
    averageMs: result.latency.average,
    refused,
    warmupRequests: result.warmup?.requests.total ?? 0,
  };
}

/**
 * Cases measured at once, each by a load generator thread of its own (one per server, as a load
 * balancer gives each upstream its share), as one result: requests and rates added up, the
 * latency percentiles the worst of the cases', the mean weighted by requests.
 */
export async function measureTogether(name: string, cases: readonly LoadCase[]): Promise<LoadResult> {
  const results = await Promise.all(cases.map(measure));
  const sum = (of: (r: LoadResult) => number) => results.reduce((total, r) => total + of(r), 0);
  const requests = sum((r) => r.requests);
  return {
    name,
    requests,
    refused: sum((r) => r.refused),
    warmupRequests: sum((r) => r.warmupRequests),
    requestsPerSecond: sum((r) => r.requestsPerSecond),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    averageMs: sum((r) => r.averageMs * r.requests) / requests,
  };
}

/** `total` connections dealt out to `servers` as evenly as they go (10 over 3: 4, 3, 3). */
export function connectionShares(total: number, servers: number): number[] {
  return Array.from({ length: servers }, (_, i) => Math.floor(total / servers) + (i < total % servers ? 1 : 0));
}

/** The run with the median requests per second, latencies included. */
export function medianRun<T extends LoadResult>(runs: readonly T[]): T {
  if (runs.length === 0) throw new Error('no runs to take the median of');
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
