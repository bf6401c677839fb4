import type { Statement } from 'better-sqlite3';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventSubscription,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamRead,
  type SubscriptionFilter,
} from '../event-store.port';
import { matchesStreamPrefixes, streamPrefixesOf } from '../stream-filter';
import { AppendNotifier } from './append-notifier';
import type { EventRow } from './event-row';
import { LogTail } from './log-tail';
import type { AppendParticipant } from './append-participant';
import type { SqliteDatabase } from './sqlite-database';
import { SqliteSubscription, type CatchUpBatch } from './sqlite-subscription';
import { StreamEnds } from './stream-ends';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS es_events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT    NOT NULL UNIQUE,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT    NOT NULL,
    UNIQUE (stream, revision)
  );
`;

const COLUMNS = 'position, stream, revision, event_id, type, data, metadata';
/**
 * How much event data one read of the log holds at most (it returns at least one event): a page
 * of large events (a usage batch of a thousand events is about 150 KB) stays small in memory.
 */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** A read that stopped at MAX_READ_BYTES, not at the end of what it was asked for. */
const isFullRead = (rows: readonly EventRow[]): boolean => rows.reduce((bytes, row) => bytes + row.data.length, 0) >= MAX_READ_BYTES;

/** SQLite reads a negative LIMIT as "no limit". */
const NO_LIMIT = -1;
const INSERTED_COLUMNS = 6;
/** Rows per INSERT of a batch: one statement writes them all, sparing a call into SQLite per event. */
const ROWS_PER_INSERT = 50;

/** Positions start at 1 (AUTOINCREMENT), so "after 0" is "from the start". */
const START = 0n;

/** An append waiting for the group it will commit with. */
interface QueuedAppend {
  stream: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: Error) => void;
}

/**
 * The embedded event store: one table in the region's SQLite file. Appends commit in groups: the
 * appends made while the event loop runs one turn are written in one IMMEDIATE transaction at the
 * end of it (group commit), each in a savepoint of its own, so each is still all or nothing, its
 * revision check and its failure its own, and a burst of concurrent appends pays for one commit.
 * Concurrent writers (also in other processes) serialize on the transaction, and the global
 * position order is the commit order. close() ends the subscriptions; the connection belongs to
 * whoever opened it.
 */
export class SqliteEventStore implements EventStore {
  private readonly notifier: AppendNotifier;
  /** Where streams end, while no other connection writes: a read past the end needs no query. */
  private readonly ends: StreamEnds;
  private readonly subscriptions = new Set<SqliteSubscription>();
  /** The latest rows, read once for every subscription of this store. */
  private readonly tail = new LogTail((after, upTo, limit) => this.readRange(after, upTo, limit, undefined));
  private readonly lastRevisionOf: Statement<[string], { revision: number }>;
  /** INSERTs of 1 to ROWS_PER_INSERT rows, by row count, prepared on first use. */
  private readonly inserts: Statement<unknown[]>[] = [];
  private readonly selectStream: Statement<[string, number, number], EventRow>;
  /** Streams from their revisions, named as a JSON list of [stream, fromRevision] pairs. */
  private readonly selectStreams: Statement<[string], EventRow>;
  private readonly selectStreamBackwards: Statement<[string, number, number], EventRow>;
  private readonly selectHead: Statement<[], { position: number | null }>;
  private readonly selectLast: Statement<[string], { revision: number; position: number | bigint }>;
  /** Prepared range reads, by number of stream prefixes (0 = no filter). */
  private readonly rangeReads = new Map<number, Statement<Record<string, unknown>, EventRow>>();
  /** Appends in one transaction, each in a savepoint: what each appended, or why it did not. */
  private readonly appendGroup: (group: readonly QueuedAppend[]) => (AppendResult | Error)[];
  private queued: QueuedAppend[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly participants: readonly AppendParticipant[] = [],
  ) {
    db.exec(SCHEMA);
    this.notifier = AppendNotifier.for(db);
    this.ends = StreamEnds.for(db);
    this.lastRevisionOf = db.prepare('SELECT revision FROM es_events WHERE stream = ? ORDER BY revision DESC LIMIT 1');
    this.selectStream = db.prepare(`SELECT ${COLUMNS} FROM es_events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`);
    // The asked list drives the join, so each stream is one range of the (stream, revision) index.
    this.selectStreams = db.prepare(
      `SELECT ${COLUMNS.replace(/\w+/g, 'e.$&')} FROM json_each(?) AS asked CROSS JOIN es_events AS e ON e.stream = asked.value ->> 0 AND e.revision >= asked.value ->> 1 ORDER BY asked.key, e.revision`,
    );
    this.selectStreamBackwards = db.prepare(`SELECT ${COLUMNS} FROM es_events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`);
    this.selectHead = db.prepare('SELECT MAX(position) AS position FROM es_events');
    this.selectLast = db.prepare('SELECT revision, position FROM es_events WHERE stream = ? ORDER BY revision DESC LIMIT 1');
    // A transaction function called inside another runs in a savepoint (better-sqlite3).
    const appendOne = db.transaction((stream: string, events: readonly NewEvent[], expected: ExpectedRevision) => {
      const result = this.appendChecked(stream, events, expected);
      for (const participant of this.participants) participant.join(stream, events);
      return result;
    });
    const group = db.transaction((appends: readonly QueuedAppend[]) =>
      appends.map(({ stream, events, expected }) => {
        try {
          return appendOne(stream, events, expected);
        } catch (error) {
          return appendError(stream, error);
        }
      }),
    );
    this.appendGroup = (appends) => group.immediate(appends);
  }

  append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new RangeError(`Append to ${stream} needs at least one event`));
    return new Promise((resolve, reject) => {
      this.queued.push({ stream, events, expected: options.expectedRevision, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => this.commitQueued());
    });
  }

  /** Commits the appends queued since the last group; a failure of the transaction itself fails them all. */
  private commitQueued(): void {
    const appends = this.queued;
    this.queued = [];
    let outcomes: (AppendResult | Error)[];
    try {
      outcomes = this.appendGroup(appends);
    } catch (error) {
      for (const participant of this.participants) participant.abandoned();
      for (const queued of appends) queued.reject(error as Error);
      return;
    }
    for (const participant of this.participants) participant.committed();
    appends.forEach((queued, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Error) return queued.reject(outcome);
      this.ends.remember(queued.stream, outcome.revision + 1);
      this.notifier.notify(queued.stream);
      queued.resolve(outcome);
    });
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? NO_LIMIT;
    if (options.direction === 'backwards') return this.selectStreamBackwards.all(stream, options.fromRevision ?? Number.MAX_SAFE_INTEGER, limit).map(toRecordedEvent);
    const from = options.fromRevision ?? 0;
    const toTheEnd = options.limit === undefined;
    if (toTheEnd && this.ends.hasNoneFrom(stream, from)) return [];
    const rows = this.selectStream.all(stream, from, limit);
    if (toTheEnd) this.ends.remember(stream, rows.length > 0 ? rows[rows.length - 1].revision + 1 : from);
    return rows.map(toRecordedEvent);
  }

  async readStreams(reads: readonly StreamRead[]): Promise<Map<string, RecordedEvent[]>> {
    const read = new Map<string, RecordedEvent[]>(reads.map(({ stream }) => [stream, []]));
    if (read.size < reads.length) throw new RangeError('readStreams names each stream once');
    const asked = reads.filter(({ stream, fromRevision }) => !this.ends.hasNoneFrom(stream, fromRevision));
    if (asked.length === 0) return read;
    for (const row of this.selectStreams.iterate(JSON.stringify(asked.map(({ stream, fromRevision }) => [stream, fromRevision])))) {
      read.get(row.stream)!.push(toRecordedEvent(row));
    }
    for (const { stream, fromRevision } of asked) {
      const events = read.get(stream)!;
      this.ends.remember(stream, events.length > 0 ? events[events.length - 1].revision + 1 : fromRevision);
    }
    return read;
  }

  async lastEventOf(stream: string): Promise<AppendResult | undefined> {
    const last = this.selectLast.get(stream);
    return last && { revision: last.revision, position: BigInt(last.position) };
  }

  async readAll(options: { fromPosition?: bigint; limit: number; filter?: SubscriptionFilter }): Promise<RecordedEvent[]> {
    const prefixes = streamPrefixesOf(options.filter);
    return this.readRange(options.fromPosition ?? START, this.head() ?? START, options.limit, prefixes).map(toRecordedEvent);
  }

  async headPosition(): Promise<bigint | undefined> {
    return this.head();
  }

  subscribeToAll(options: { fromPosition?: bigint; filter?: SubscriptionFilter }): EventSubscription {
    const prefixes = streamPrefixesOf(options.filter);
    const subscription = new SqliteSubscription(
      (from, limit) => this.catchUpBatch(from, limit, prefixes),
      options.fromPosition ?? START,
      this.notifier,
      (closed) => this.subscriptions.delete(closed),
      (stream) => matchesStreamPrefixes(stream, prefixes),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
  }

  private appendChecked(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult {
    const last = this.lastRevisionOf.get(stream)?.revision;
    if (expected !== 'any') {
      const actual = last ?? 'no_stream';
      if (actual !== (expected === 'no_stream' ? 'no_stream' : expected)) {
        throw new WrongExpectedRevisionError(stream, expected, actual);
      }
    }
    let revision = last ?? -1;
    const values: unknown[] = [];
    for (const event of events) {
      revision += 1;
      values.push(stream, revision, event.id, event.type, JSON.stringify(event.data ?? null), JSON.stringify(event.metadata));
    }
    let position: number | bigint = 0;
    for (let row = 0; row < events.length; row += ROWS_PER_INSERT) {
      const rows = Math.min(ROWS_PER_INSERT, events.length - row);
      position = this.insertOf(rows).run(values.slice(row * INSERTED_COLUMNS, (row + rows) * INSERTED_COLUMNS)).lastInsertRowid;
    }
    return { revision, position: BigInt(position) };
  }

  private insertOf(rows: number): Statement<unknown[]> {
    this.inserts[rows] ??= this.db.prepare(
      `INSERT INTO es_events (stream, revision, event_id, type, data, metadata) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
    );
    return this.inserts[rows];
  }

  private head(): bigint | undefined {
    const position = this.selectHead.get()?.position;
    return position === null || position === undefined ? undefined : BigInt(position);
  }

  /** A filtered catch-up remembers how far it scanned, so rare matches do not rescan the tail. */
  private catchUpBatch(from: bigint, limit: number, prefixes: readonly string[] | undefined): CatchUpBatch {
    const head = this.head() ?? START;
    const kept = this.tail.read(from, head, limit, (stream) => matchesStreamPrefixes(stream, prefixes));
    if (kept) return { events: kept.rows.map(sharedRecordedEvent), scannedTo: kept.scannedTo, more: kept.rows.length === limit };
    const rows = this.readRange(from, head, limit, prefixes);
    const events = rows.map(toRecordedEvent);
    const more = events.length === limit || isFullRead(rows);
    const scannedTo = more ? events[events.length - 1].position : head > from ? head : from;
    return { events, scannedTo, more };
  }

  /** At most `limit` rows, in position order; fewer once they hold MAX_READ_BYTES of event data (at least one). */
  private readRange(from: bigint, to: bigint, limit: number, prefixes: readonly string[] | undefined): EventRow[] {
    const params: Record<string, unknown> = { from, to, limit };
    prefixes?.forEach((prefix, i) => (params[`p${i}`] = prefix));
    const rows: EventRow[] = [];
    let bytes = 0;
    for (const row of this.rangeRead(prefixes?.length ?? 0).iterate(params)) {
      rows.push(row);
      bytes += row.data.length;
      if (bytes >= MAX_READ_BYTES) break;
    }
    return rows;
  }

  private rangeRead(prefixCount: number): Statement<Record<string, unknown>, EventRow> {
    let statement = this.rangeReads.get(prefixCount);
    if (!statement) {
      const matches = Array.from({ length: prefixCount }, (_, i) => `substr(stream, 1, length(@p${i})) = @p${i}`);
      const filter = prefixCount > 0 ? ` AND (${matches.join(' OR ')})` : '';
      statement = this.db.prepare(
        `SELECT ${COLUMNS} FROM es_events WHERE position > @from AND position <= @to${filter} ORDER BY position LIMIT @limit`,
      );
      this.rangeReads.set(prefixCount, statement);
    }
    return statement;
  }
}

function appendError(stream: string, error: unknown): Error {
  if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return new DuplicateEventIdError(stream);
  return error as Error;
}

/**
 * The rows the tail keeps are read by every subscription of the connection (each projection,
 * process manager and reaction of a thread): each is parsed once, and its subscribers share the
 * event, frozen, while the tail keeps the row. A usage batch is a thousand events of JSON.
 */
const parsedRows = new WeakMap<EventRow, RecordedEvent>();

function sharedRecordedEvent(row: EventRow): RecordedEvent {
  let event = parsedRows.get(row);
  if (!event) parsedRows.set(row, (event = Object.freeze(toRecordedEvent(row))));
  return event;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    stream: row.stream,
    revision: row.revision,
    position: BigInt(row.position),
  };
}
