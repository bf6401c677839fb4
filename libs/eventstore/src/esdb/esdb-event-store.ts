import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventStoreDBClient,
  type ReadPosition,
  type ReadStreamOptions as ReadStreamRequest,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventSubscription,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type StreamRead,
  type RecordedEvent,
  type SubscriptionFilter,
} from '../event-store.port';
import { matchesStreamPrefixes, streamPrefixesOf } from '../stream-filter';
import { isHiddenFromAll, toEventData, toRecordedEvent } from './esdb-events';
import { decodePosition, encodePosition } from './esdb-position';
import { DEFAULT_RESUBSCRIBE_POLICY, EsdbSubscription, type ResubscribePolicy } from './esdb-subscription';

/** $all is read in pages, since system and snapshot events are skipped on this side. */
const READ_ALL_PAGE = 500;

/**
 * The production event store on EventStoreDB. Our global position is the $all position packed into
 * one bigint (see esdb-position.ts); our event ids (ULIDs) travel as UUIDs (see ulid-uuid.ts).
 * close() ends the subscriptions; the client belongs to whoever connected it.
 */
export class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<EsdbSubscription>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly resubscribe: ResubscribePolicy = DEFAULT_RESUBSCRIBE_POLICY,
  ) {}

  async append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`Append to ${stream} needs at least one event`);
    try {
      const result = await this.client.appendToStream(stream, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(options.expectedRevision),
      });
      if (!result.position) throw new Error(`EventStoreDB returned no position for the append to ${stream}`);
      return { revision: Number(result.nextExpectedRevision), position: encodePosition(result.position) };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(stream, options.expectedRevision, toActualRevision(error.actualVersion));
      }
      throw error;
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    // Nothing to ask the server for (and what it does with a count of 0 is not documented).
    if (options.limit === 0) return [];
    const backwards = options.direction === 'backwards';
    const read: ReadStreamRequest = {
      fromRevision: options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision),
      direction: backwards ? BACKWARDS : FORWARDS,
      maxCount: options.limit ?? Number.MAX_SAFE_INTEGER,
    };
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, read)) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** The server reads one stream a call: the streams are read in parallel. */
  async readStreams(reads: readonly StreamRead[]): Promise<Map<string, RecordedEvent[]>> {
    if (new Set(reads.map(({ stream }) => stream)).size < reads.length) throw new RangeError('readStreams names each stream once');
    return new Map(await Promise.all(reads.map(async ({ stream, fromRevision }) => [stream, await this.readStream(stream, { fromRevision })] as const)));
  }

  /** The server has no read of a position alone: this reads the last event. */
  async lastEventOf(stream: string): Promise<AppendResult | undefined> {
    const [last] = await this.readStream(stream, { direction: 'backwards', limit: 1 });
    return last && { revision: last.revision, position: last.position };
  }

  async readAll(options: { fromPosition?: bigint; limit: number; filter?: SubscriptionFilter }): Promise<RecordedEvent[]> {
    const prefixes = streamPrefixesOf(options.filter);
    const events: RecordedEvent[] = [];
    let cursor = options.fromPosition;
    while (events.length < options.limit) {
      const page = await this.readAllPage(cursor === undefined ? START : decodePosition(cursor), FORWARDS);
      for (const event of page) {
        const position = encodePosition(event.position);
        // A read from a position may include that position; the port's `fromPosition` is exclusive.
        if (cursor !== undefined && position <= cursor) continue;
        cursor = position;
        if (isHiddenFromAll(event) || !matchesStreamPrefixes(event.streamId, prefixes)) continue;
        events.push(toRecordedEvent(event));
        if (events.length === options.limit) break;
      }
      if (page.length < READ_ALL_PAGE) break;
    }
    return events;
  }

  async headPosition(): Promise<bigint | undefined> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await this.readAllPage(from, BACKWARDS);
      const newest = page.find((event) => !isHiddenFromAll(event));
      if (newest) return encodePosition(newest.position);
      if (page.length < READ_ALL_PAGE) return undefined;
      from = page[page.length - 1].position;
    }
  }

  subscribeToAll(options: { fromPosition?: bigint; filter?: SubscriptionFilter }): EventSubscription {
    const subscription = new EsdbSubscription(
      this.client,
      options.fromPosition,
      streamPrefixesOf(options.filter),
      this.resubscribe,
      (closed) => this.subscriptions.delete(closed),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
  }

  private async readAllPage(fromPosition: ReadPosition, direction: typeof FORWARDS | typeof BACKWARDS): Promise<AllStreamRecordedEvent[]> {
    const page: AllStreamRecordedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition, direction, maxCount: READ_ALL_PAGE })) {
      if (resolved.event) page.push(resolved.event);
    }
    return page;
  }
}

/** The non-batch append path reports a missing stream as -1. */
function toActualRevision(actual: CurrentRevision): number | 'no_stream' {
  return actual === NO_STREAM || actual < 0n ? 'no_stream' : Number(actual);
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}
