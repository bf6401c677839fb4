import type { AppendResult, EventStore, EventSubscription, ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent, SubscriptionFilter } from '@tally/eventstore';
import type { TallyMetrics } from '@tally/observability';
import type { Region } from './context/request-context';

/**
 * A cell's event store that times each append into `event_store_append_duration_seconds`. Wrapping
 * the port in the cell catches every writer alike (commands, process managers, tenant setup), and
 * measures the store alone, not the decide and encrypt work around it.
 */
export class TimedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly region: Region,
    private readonly metrics: TallyMetrics,
  ) {}

  async append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const started = performance.now();
    try {
      return await this.inner.append(stream, events, options);
    } finally {
      this.metrics.appendDuration.observe({ region: this.region }, (performance.now() - started) / 1000);
    }
  }

  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }

  lastEventOf(stream: string): Promise<AppendResult | undefined> {
    return this.inner.lastEventOf(stream);
  }

  readAll(options: { fromPosition?: bigint; limit: number; filter?: SubscriptionFilter }): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<bigint | undefined> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: { fromPosition?: bigint; filter?: SubscriptionFilter }): EventSubscription {
    return this.inner.subscribeToAll(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The cell factories' hook: timed when the process keeps metrics, as is for the command-line tools. */
export const withAppendTiming = (events: EventStore, region: Region, metrics: TallyMetrics | undefined): EventStore =>
  metrics ? new TimedEventStore(events, region, metrics) : events;
