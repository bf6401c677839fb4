import type {
  AppendResult,
  EventStore,
  EventSubscription,
  ExpectedRevision,
  NewEvent,
  ReadStreamOptions,
  RecordedEvent,
  StreamRead,
  SubscriptionFilter,
} from '@tally/eventstore';
import type { PiiCodec } from '../pii/pii-codec';
import type { EventUpcasters } from './event-upcasters';

/**
 * A cell's event store that delivers every event in its type's current shape, whichever read
 * (readStream, readAll, subscribeToAll) and whoever reads (commands, projections, processes,
 * auditors). Events stored at an older schema version pass through their type's upcasters.
 *
 * Upcasters see plain data: an old event is decoded with the PII codec first, because a sealed
 * personal field can be neither read nor moved (its seal names the paths it came from). Such an
 * event therefore leaves this store decoded; current events leave it as stored, and readers decode
 * them as before (decoding a decoded event changes nothing). Appends pass through unchanged.
 */
export class UpcastingEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly upcasters: EventUpcasters,
    private readonly pii: PiiCodec,
  ) {}

  append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.append(stream, events, options);
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.allCurrent(await this.inner.readStream(stream, options));
  }

  async readStreams(reads: readonly StreamRead[]): Promise<Map<string, RecordedEvent[]>> {
    const read = await this.inner.readStreams(reads);
    for (const [stream, events] of read) read.set(stream, await this.allCurrent(events));
    return read;
  }

  lastEventOf(stream: string): Promise<AppendResult | undefined> {
    return this.inner.lastEventOf(stream);
  }

  async readAll(options: { fromPosition?: bigint; limit: number; filter?: SubscriptionFilter }): Promise<RecordedEvent[]> {
    return this.allCurrent(await this.inner.readAll(options));
  }

  headPosition(): Promise<bigint | undefined> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: { fromPosition?: bigint; filter?: SubscriptionFilter }): EventSubscription {
    const inner = this.inner.subscribeToAll(options);
    const current = (event: RecordedEvent) => this.current(event);
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) yield current(event);
      },
    };
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async allCurrent(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    return events.every((event) => this.isCurrent(event)) ? events : Promise.all(events.map((event) => this.current(event)));
  }

  private async current(event: RecordedEvent): Promise<RecordedEvent> {
    if (this.isCurrent(event)) return event;
    const plain = await this.pii.decode(event.type, event.data);
    return {
      ...event,
      data: this.upcasters.upcast(event.type, plain, event.metadata),
      metadata: { ...event.metadata, schema_version: this.upcasters.currentVersion(event.type) },
    };
  }

  private isCurrent(event: RecordedEvent): boolean {
    return this.upcasters.isCurrent(event.type, event.metadata.schema_version);
  }
}
