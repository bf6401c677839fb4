/**
 * The event store: append-only streams, one per aggregate (`<aggregate>-<id>`), in one global
 * order. Both adapters (SQLite, EventStoreDB) pass the contract suite in event-store.contract.ts.
 */

/** Who, where, why and when: stored with every event. */
export interface EventMetadata {
  tenant_id: string;
  environment: 'live' | 'sandbox';
  actor: string;
  request_id: string | null;
  causation_id: string | null;
  correlation_id: string | null;
  occurred_at: string;
  schema_version: number;
  /** Process managers store the id of the input an output answers, so redelivery does nothing. */
  input_id?: string;
  /** The id of the issued command that appended the event; the same command id is not applied twice to a stream. */
  command_id?: string;
  /** The sandbox test clock whose time `occurred_at` is; absent on the system clock. */
  clock_id?: string;
}

export interface NewEvent {
  /** A ULID; the public event id is `evt_` + this. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  stream: string;
  /** 0-based position of the event inside its stream. */
  revision: number;
  /** Position in the global order; strictly increasing across the whole store. */
  position: bigint;
}

/**
 * What the writer expects the stream to look like: `no_stream` (it must not exist), `any`
 * (no check), or the revision of its last event.
 */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event appended. */
  revision: number;
  /** Global position of the last event appended. */
  position: bigint;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${stream}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id that is already stored: the whole append was refused. */
export class DuplicateEventIdError extends Error {
  constructor(readonly stream: string) {
    super(`Append to ${stream} carries an event id that is already stored; nothing was appended`);
    this.name = 'DuplicateEventIdError';
  }
}

export interface SubscriptionFilter {
  /** Only events of streams whose name starts with one of these. */
  streamPrefixes?: readonly string[];
}

/** A catch-up subscription: yields stored events, then new ones as they are appended. */
export interface EventSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/**
 * Which part of one stream to read. Forwards (the default) starts at `fromRevision` (inclusive,
 * default 0); backwards starts there too (default: the last event) and returns newest first.
 * `limit` caps the number of events (default: no cap).
 */
export interface ReadStreamOptions {
  fromRevision?: number;
  limit?: number;
  direction?: 'forwards' | 'backwards';
}

/** One stream of a batched read (see EventStore.readStreams): forwards from `fromRevision` to its end. */
export interface StreamRead {
  stream: string;
  fromRevision: number;
}

export interface EventStore {
  /** Appends all events or none. Throws WrongExpectedRevisionError on a revision mismatch. */
  append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Events of one stream, as ReadStreamOptions says. Empty when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * Several streams at once (each named once), each as `readStream(stream, { fromRevision })`
   * reads it, by stream; a stream with nothing from there maps to an empty list. For a caller that
   * loads a page of aggregates: an adapter reads them in one query, or in parallel.
   */
  readStreams(reads: readonly StreamRead[]): Promise<Map<string, RecordedEvent[]>>;
  /**
   * Where the stream's last event is (as its append answered), without decoding it: for a reader
   * that waits for what was appended, when the events are large. Undefined for an unknown stream.
   */
  lastEventOf(stream: string): Promise<AppendResult | undefined>;
  /**
   * Events after `fromPosition` (exclusive; undefined = from the start) in global order, at most
   * `limit`, possibly fewer when they are large (an adapter may bound a page's size); an empty page
   * means there are no more.
   */
  readAll(options: { fromPosition?: bigint; limit: number; filter?: SubscriptionFilter }): Promise<RecordedEvent[]>;
  /** Position of the newest event, or undefined for an empty store. */
  headPosition(): Promise<bigint | undefined>;
  /** Catch-up from `fromPosition` (exclusive), then live. Consume with `for await`, one event at a time. */
  subscribeToAll(options: { fromPosition?: bigint; filter?: SubscriptionFilter }): EventSubscription;
  close(): Promise<void>;
}

/** Snapshots of aggregate state, so that loading a long stream reads only its tail. */
export interface Snapshot<State = unknown> {
  stream: string;
  /** Revision of the last event folded into `state`. */
  revision: number;
  /** Changes whenever the state's shape changes; a snapshot of another version is ignored. */
  version: number;
  state: State;
}

export interface SnapshotStore {
  load<State>(stream: string, version: number): Promise<Snapshot<State> | undefined>;
  save(snapshot: Snapshot): Promise<void>;
}
