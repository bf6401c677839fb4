/** The part of autocannon's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Run the load generator in this many worker threads. */
      workers?: number;
      warmup?: { connections?: number; duration?: number };
      /** With `workers`: the absolute path of a module whose export sets up each connection. */
      setupClient?: string;
    }

    /** One connection, as `setupClient` gets it. */
    interface Client {
      /** The connection's options; `port` is the server's (a string when parsed from the URL). */
      opts: { port: number | string };
      setRequests(requests: { method: string; path: string; body?: string }[]): void;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
      /** The warm-up's result, when the run had one. */
      warmup?: Result;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
