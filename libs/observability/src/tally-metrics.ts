import { Counter } from './counter';
import { Histogram } from './histogram';
import type { MetricFamily } from './prometheus-text';

/** Prometheus' default buckets: a few milliseconds to ten seconds. */
const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** An embedded append takes well under a millisecond; a remote one a few. */
const APPEND_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** What this process counts and times as it happens; the gauges read at scrape time live in MetricsController. */
export class TallyMetrics {
  readonly httpRequests = new Counter('http_requests_total', 'HTTP requests answered, by method, route template and status', ['method', 'route', 'status']);

  readonly httpDuration = new Histogram(
    'http_request_duration_seconds',
    'Time from receiving an HTTP request to finishing its response, by method and route template',
    ['method', 'route'],
    HTTP_SECONDS,
  );

  readonly appendDuration = new Histogram(
    'event_store_append_duration_seconds',
    "Duration of one append to a region's event store, refused appends included",
    ['region'],
    APPEND_SECONDS,
  );

  readonly commandsDispatched = new Counter(
    'process_commands_dispatched_total',
    'Commands issued by process managers and dispatched, by process and outcome (applied, rejected, parked)',
    ['process', 'outcome'],
  );

  readonly commandRetries = new Counter('process_command_retries_total', 'Dispatch attempts of issued commands that failed and were tried again, by process', ['process']);

  readonly readWaits = new Counter(
    'read_your_writes_waits_total',
    "Reads that waited for the read models to show what their tenant had written, by outcome (caught_up, or timed_out: answered with what they held)",
    ['outcome'],
  );

  families(): MetricFamily[] {
    return [this.httpRequests.collect(), this.httpDuration.collect(), this.appendDuration.collect(), this.commandsDispatched.collect(), this.commandRetries.collect(), this.readWaits.collect()];
  }
}
