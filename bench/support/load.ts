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
}

export interface LoadResult {
  name: string;
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, at autocannon's 1 ms resolution. */
  p50: number;
  p99: number;
  averageMs: number;
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
  const result = await autocannon({
    url: target.url,
    method: target.method,
    body: target.body,
    headers: target.body === undefined ? target.headers : { 'content-type': 'application/json', ...target.headers },
    connections: LOAD.connections,
    duration: LOAD.seconds,
    workers: 1,
    ...(target.setupClient && { setupClient: target.setupClient }),
    warmup: { connections: LOAD.connections, duration: LOAD.warmupSeconds },
  });
  if (result.errors + result.timeouts + result.non2xx > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers (${codes})`);
  }
  return {
    name: target.name,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    averageMs: result.latency.average,
  };
}

/** The run with the median requests per second, latencies included. */
export function medianRun(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error('no runs to take the median of');
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
