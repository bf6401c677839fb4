import type { AppendResult, EventStore, EventSubscription, ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent, StreamRead, SubscriptionFilter } from '@tally/eventstore';
import type { TallyMetrics } from '@tally/observability';
import type { Region } from './context/request-context';
import type { WrittenPositions } from './written-positions';

/**
 * A cell's event store that notes, for each append, the position it reached for its tenant and
 * environment (what their later reads wait for), and times it into
 * `event_store_append_duration_seconds` when the process keeps metrics. Wrapping the port in the
 * cell catches every writer alike (commands, process managers, tenant setup), and measures the
 * store alone, not the decide and encrypt work around it.
 */
export class ObservedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly region: Region,
    private readonly written: WrittenPositions,
    private readonly metrics: TallyMetrics | undefined,
  ) {}

  async append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const started = performance.now();
    try {
      const result = await this.inner.append(stream, events, options);
      if (events.length > 0) this.written.note(events[0].metadata.tenant_id, events[0].metadata.environment, result.position);
      return result;
    } finally {
      this.metrics?.appendDuration.observe({ region: this.region }, (performance.now() - started) / 1000);
    }
  }

  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }

  readStreams(reads: readonly StreamRead[]): Promise<Map<string, RecordedEvent[]>> {
    return this.inner.readStreams(reads);
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
