import { setTimeout as sleep } from 'node:timers/promises';
import { derivedId, DomainError, jsonCopy, type Command, type Event, type IdGenerator } from '@tally/kernel';
import { WrongExpectedRevisionError, type EventMetadata, type NewEvent, type RecordedEvent, type Snapshot, type StreamRead } from '@tally/eventstore';
import type { Cell, CellRegistry, RequestContext } from '@tally/cells';
import type { Clocks } from '../clocks/clocks';
import type { ResourceDoc } from '../public-events/resource-view';
import { streamName, type AggregateDefinition } from './aggregate-definition';
import { eventMetadata } from './event-metadata';
import { foldEvents, type FoldedAggregate } from './folded-aggregate';
import { FoldCache, type CachedFold } from './folded-cache';
import { roundsOf } from '../runners/lanes';
import type { HistoryEvent } from './history-event';
import type { CommandOrBuilder } from './commands';

export interface CommandOptions {
  /** The revision the client last saw (`If-Match`); a mismatch answers 412 instead of retrying. */
  expectedRevision?: number;
  /**
   * The id was generated for this command, so its stream cannot exist yet: the first attempt
   * decides on the initial state without reading it (a collision would fail the append, and the
   * retry reads the stream).
   */
  newStream?: boolean;
}

/**
 * The aggregate after the command: its state, its resource as the API shows it (undefined for an
 * aggregate without a view, or one its events deleted), and the revision of the stream's last event
 * (-1: the stream is still empty).
 */
export interface CommandOutcome<S, R = never> extends FoldedAggregate<S, R> {
  /** The events this command appended (empty when it was already satisfied). */
  appended: HistoryEvent[];
}

export interface Loaded<S, R = never> extends FoldedAggregate<S, R> {
  /** Revision of the snapshot the fold started from (-1: none). */
  snapshotRevision: number;
  /** The test clock the aggregate lives on, named by its first event. */
  clockId?: string;
  /** Command ids this stream has applied (since its snapshot, and those the snapshot kept). */
  commandIds: ReadonlySet<string>;
}

/** How many applied command ids a snapshot keeps, so a redelivered command meets its id after a snapshot too. */
const SNAPSHOT_COMMAND_IDS = 200;

export interface LoadOptions {
  /** Fold only the events that occurred at or before this moment (read from the start, no snapshot). */
  asOf?: Date;
}

const MAX_ATTEMPTS = 8;

/** One command of a page (see CommandRuntime.executeEach). */
export interface PageCommand<S, C extends Command> {
  id: string;
  command: CommandOrBuilder<S, C>;
  context: RequestContext;
}

/** One command of a batch to one aggregate (see CommandRuntime.executeBatch). */
export interface BatchCommand<S, C extends Command> {
  command: CommandOrBuilder<S, C>;
  context: RequestContext;
}

/** What one command decided: the events it appends, stamped with its own metadata. */
interface Decision {
  events: HistoryEvent[];
}

/** A command of a batch, decided or refused. */
type Decided = { decision: Decision } | { refused: unknown };

/** A stream to fold from its snapshot (or the start) and the events stored after it. */
interface FromStart<S, R> {
  id: string;
  stream: string;
  context: RequestContext;
  snapshot: Snapshot<Snapshotted<S, R>> | undefined;
  stored: readonly RecordedEvent[];
  asOf?: Date;
}

/**
 * The id a command is applied under: the sender's command id scoped by the command's type, so
 * that one dispatched context may send several commands to one stream (each applies once) and a
 * redelivery of any of them changes nothing.
 */
export const scopedCommandId = (commandId: string, commandType: string): string => derivedId('cmd', [commandId, commandType]);

/**
 * Read the aggregate's stream, decide, append with the expected revision. A concurrent writer
 * makes the append fail; the runtime then re-reads and decides again, a bounded number of
 * times, so no update is lost. With a pinned revision (If-Match) it fails with 412 instead.
 */
export class CommandRuntime {
  /** The last folds of each cell's streams (see FoldCache): a load reads only what was appended since. */
  private readonly folds = new WeakMap<Cell, FoldCache>();

  constructor(
    private readonly cells: CellRegistry,
    private readonly clocks: Clocks,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * `command` may be built from "now" (ISO 8601 UTC) on the clock the aggregate lives on, for a
   * decider that decides by the time: a subscription's trial or period on its test clock. The
   * events it appends occur at that same moment. The builder also gets the state the command will
   * be decided against (built again on a retry), so what it derives from the state, such as the
   * price of the quantities a change replaces, is never stale.
   */
  async execute<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    aggregate: AggregateDefinition<S, C, E, R>,
    id: string,
    command: C | ((now: string, state: S) => C | Promise<C>),
    context: RequestContext,
    options: CommandOptions = {},
  ): Promise<CommandOutcome<S, R>> {
    const cell = this.cells.cell(context.region);
    const stream = streamName(aggregate.type, id);
    for (let attempt = 1; ; attempt++) {
      const loaded = options.newStream && attempt === 1 ? unborn<S, R>(aggregate.decider.initialState()) : await this.load(cell, aggregate, id, context);
      if (options.expectedRevision !== undefined && options.expectedRevision !== loaded.revision) {
        throw preconditionFailed(options.expectedRevision, loaded.revision);
      }
      try {
        return await this.decided(cell, aggregate, stream, loaded, command, context);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (options.expectedRevision !== undefined) throw preconditionFailed(options.expectedRevision, error.actual);
        if (attempt >= MAX_ATTEMPTS) throw DomainError.conflict('request.concurrent_update', 'The resource kept changing while this request ran; retry it');
        await sleep(attempt * 5 + Math.floor(Math.random() * 10));
      }
    }
  }

  /**
   * A page of commands to aggregates of one type, each with the outcome `execute` would give it
   * (or its error: a refusal is the command's, not the page's). The page's streams are read in one
   * batched read and their appends sent together, so the store commits them as one group; the
   * commands to one aggregate run in the order given, one round each. Each append still carries its
   * expected revision and command id; one that meets a concurrent writer goes through `execute`,
   * which reads again and retries.
   */
  async executeEach<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    aggregate: AggregateDefinition<S, C, E, R>,
    items: readonly PageCommand<S, C>[],
  ): Promise<PromiseSettledResult<CommandOutcome<S, R>>[]> {
    const settled: PromiseSettledResult<CommandOutcome<S, R>>[] = new Array(items.length);
    for (const round of roundsOf(items.map((_, i) => i), (i) => items[i].id)) {
      const loads = await this.loadsOf(aggregate, round.map((i) => items[i]));
      await Promise.all(
        round.map(async (i, k) => {
          const { id, command, context } = items[i];
          const cell = this.cells.cell(context.region);
          const attempt = async (): Promise<CommandOutcome<S, R>> => {
            try {
              return await this.decided(cell, aggregate, streamName(aggregate.type, id), await loads[k](), command, context);
            } catch (error) {
              if (!(error instanceof WrongExpectedRevisionError)) throw error;
              return this.execute(aggregate, id, command, context);
            }
          };
          [settled[i]] = await Promise.allSettled([attempt()]);
        }),
      );
    }
    return settled;
  }

  /**
   * Several commands to ONE aggregate, of one tenant and environment: decided one after the other,
   * each on the state the previous left, and appended in one append with the expected revision, each
   * event stamped with its own command's metadata and command id. Each command gets the outcome
   * `execute` would give it in that order, or its own refusal (the others still apply). An append
   * that meets a concurrent writer reads again and decides the whole batch again: nothing is applied
   * twice, no rule is checked on a stale state.
   */
  async executeBatch<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    aggregate: AggregateDefinition<S, C, E, R>,
    id: string,
    items: readonly BatchCommand<S, C>[],
  ): Promise<PromiseSettledResult<CommandOutcome<S, R>>[]> {
    if (items.length === 0) return [];
    const { context } = items[0];
    if (items.some((item) => !ownedBy({ tenant_id: item.context.tenantId, environment: item.context.environment }, context) || item.context.region !== context.region)) {
      throw new Error('a batch of commands is of one tenant, environment and region');
    }
    const cell = this.cells.cell(context.region);
    const stream = streamName(aggregate.type, id);
    for (let attempt = 1; ; attempt++) {
      let loaded: Loaded<S, R>;
      try {
        loaded = await this.load(cell, aggregate, id, context);
      } catch (error) {
        return items.map(() => ({ status: 'rejected', reason: error }));
      }
      const decided = await this.decideInTurn(cell, aggregate, stream, loaded, items);
      try {
        return await this.committed(cell, aggregate, stream, loaded, decided, context);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) return items.map(() => ({ status: 'rejected', reason: error }));
        if (attempt >= MAX_ATTEMPTS) {
          const reason = DomainError.conflict('request.concurrent_update', 'The resource kept changing while this request ran; retry it');
          return items.map(() => ({ status: 'rejected', reason }));
        }
        await sleep(attempt * 5 + Math.floor(Math.random() * 10));
      }
    }
  }

  /** Decides the command on the loaded aggregate and appends what it decided; a concurrent writer fails the append (WrongExpectedRevisionError). */
  private async decided<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    loaded: Loaded<S, R>,
    command: CommandOrBuilder<S, C>,
    context: RequestContext,
  ): Promise<CommandOutcome<S, R>> {
    const [outcome] = await this.committed(cell, aggregate, stream, loaded, [{ decision: await this.decision(cell, aggregate, stream, loaded, command, context) }], context);
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  }

  /** The batch's commands decided in order, each on the fold the previous decisions left; a refusal is the command's own. */
  private async decideInTurn<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    loaded: Loaded<S, R>,
    items: readonly BatchCommand<S, C>[],
  ): Promise<Decided[]> {
    const decided: Decided[] = [];
    let at = loaded;
    for (const { command, context } of items) {
      try {
        const decision = await this.decision(cell, aggregate, stream, at, command, context);
        decided.push({ decision });
        if (decision.events.length > 0) at = { ...at, ...foldEvents(aggregate, at, decision.events), commandIds: withIds(at.commandIds, decision.events) };
      } catch (error) {
        decided.push({ refused: error });
      }
    }
    return decided;
  }

  /** The events the command decides on the aggregate as it stands (none when its command id was applied), stamped with its context. */
  private async decision<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    loaded: Loaded<S, R>,
    command: CommandOrBuilder<S, C>,
    context: RequestContext,
  ): Promise<Decision> {
    const clockId = loaded.clockId ?? context.clockId;
    const decidedAt = typeof command === 'function' ? await this.clocks.now(cell, clockId) : undefined;
    const built = typeof command === 'function' ? await command(decidedAt!.toISOString(), loaded.state) : command;
    const commandId = context.commandId === undefined ? undefined : scopedCommandId(context.commandId, built.type);
    // Events stored before ids were scoped carry the id as it was sent.
    const applied = commandId !== undefined && (loaded.commandIds.has(commandId) || loaded.commandIds.has(context.commandId!));
    if (applied) return { events: [] };
    const decided = aggregate.decider.decide(built, loaded.state);
    if (decided.length === 0) return { events: [] };

    const metadata = eventMetadata({ ...context, commandId }, decidedAt ?? (await this.clocks.now(cell, clockId)), clockId);
    const events: HistoryEvent[] = decided.map((event, i) => ({
      id: this.ids.ulid(),
      type: event.type,
      data: event.data,
      metadata: { ...metadata, schema_version: cell.upcasters.currentVersion(event.type) },
      stream,
      revision: loaded.revision + 1 + i,
    }));
    return { events };
  }

  /**
   * Appends the decisions' events in one append with the expected revision (none appended: no
   * append) and answers each decision with its outcome, the fold its own events left; a concurrent
   * writer fails the append (WrongExpectedRevisionError).
   */
  private async committed<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    loaded: Loaded<S, R>,
    decided: readonly Decided[],
    context: RequestContext,
  ): Promise<PromiseSettledResult<CommandOutcome<S, R>>[]> {
    const appended = decided.flatMap((item) => ('decision' in item ? item.decision.events : []));
    let stored: readonly HistoryEvent[] | undefined = [];
    let snapshotRevision = loaded.snapshotRevision;
    if (appended.length > 0) {
      const encoded = await this.encode(cell, appended);
      await cell.events.append(stream, encoded, { expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision });
      // Without personal data, the events as a load reads them back (through JSON): the outcome and
      // the kept fold are then exactly what the next load would find.
      stored = this.holdsPersonalData(cell, encoded) ? undefined : asStored(appended, encoded);
    }
    let at: FoldedAggregate<S, R> = { state: loaded.state, resource: loaded.resource, revision: loaded.revision };
    let from = 0;
    const outcomes = decided.map((item): PromiseSettledResult<CommandOutcome<S, R>> => {
      if ('refused' in item) return { status: 'rejected', reason: item.refused };
      const own = item.decision.events;
      at = foldEvents(aggregate, at, (stored ?? appended).slice(from, from + own.length));
      from += own.length;
      return { status: 'fulfilled', value: { ...at, appended: own } };
    });
    if (appended.length === 0) return outcomes;
    if (aggregate.snapshot && at.revision - loaded.snapshotRevision >= aggregate.snapshot.every) {
      const commandIds = [...withIds(loaded.commandIds, appended)].slice(-SNAPSHOT_COMMAND_IDS);
      await this.saveSnapshot(cell, aggregate.snapshot.version, stream, { ...at, commandIds, clockId: loaded.clockId ?? context.clockId }, context);
      snapshotRevision = at.revision;
    }
    this.keepAppended(cell, stream, loaded, at, stored, { snapshotRevision, context });
    return outcomes;
  }

  cellOf(context: RequestContext): Cell {
    return this.cells.cell(context.region);
  }

  /** The aggregate as it is now (or was at `asOf`); an aggregate of another tenant or environment does not exist. */
  async load<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    id: string,
    context: RequestContext,
    options: LoadOptions = {},
  ): Promise<Loaded<S, R>> {
    const stream = streamName(aggregate.type, id);
    if (!options.asOf) {
      const cached = this.cachedFold(cell, aggregate, stream, id, context);
      if (cached) {
        const tail = await this.continued(cell, aggregate, stream, cached, await cell.events.readStream(stream, { fromRevision: cached.revision + 1 }));
        if (tail) return tail;
      }
    }
    const snapshot = options.asOf ? undefined : await this.snapshotOf(cell, aggregate, stream, id, context);
    const stored = await cell.events.readStream(stream, { fromRevision: snapshot ? snapshot.revision + 1 : 0 });
    return this.folded(cell, aggregate, { id, stream, context, snapshot, stored, asOf: options.asOf });
  }

  /** A page of aggregates as `load` gives each (or why not), their streams read in one batched read; each aggregate named once. */
  async loadEach<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    aggregate: AggregateDefinition<S, C, E, R>,
    items: readonly { id: string; context: RequestContext }[],
  ): Promise<PromiseSettledResult<Loaded<S, R>>[]> {
    return Promise.allSettled((await this.loadsOf(aggregate, items)).map((loaded) => loaded()));
  }

  /**
   * The page's aggregates, their streams read in one batched read per cell (each from its cached
   * fold's end, its snapshot's, or the start): for each, its load, or why it failed (another
   * tenant's aggregate is not found). A cached fold whose tail holds personal data is loaded again
   * alone, from the start, as `load` does.
   */
  private async loadsOf<S, C extends Command, E extends Event, R extends ResourceDoc>(
    aggregate: AggregateDefinition<S, C, E, R>,
    items: readonly { id: string; context: RequestContext }[],
  ): Promise<(() => Promise<Loaded<S, R>>)[]> {
    const planned = await Promise.all(
      items.map(async ({ id, context }) => {
        const cell = this.cells.cell(context.region);
        const stream = streamName(aggregate.type, id);
        try {
          const cached = this.cachedFold(cell, aggregate, stream, id, context);
          const snapshot = cached ? undefined : await this.snapshotOf(cell, aggregate, stream, id, context);
          return { cell, stream, cached, snapshot, fromRevision: cached ? cached.revision + 1 : snapshot ? snapshot.revision + 1 : 0 };
        } catch (error) {
          return { failed: error };
        }
      }),
    );
    const byCell = new Map<Cell, StreamRead[]>();
    for (const plan of planned) {
      if ('failed' in plan) continue;
      const reads = byCell.get(plan.cell);
      if (reads) reads.push(plan);
      else byCell.set(plan.cell, [plan]);
    }
    const read = new Map(await Promise.all([...byCell].map(async ([cell, reads]) => [cell, await cell.events.readStreams(reads)] as const)));
    return planned.map((plan, k) => async () => {
      if ('failed' in plan) throw plan.failed;
      const { id, context } = items[k];
      const stored = read.get(plan.cell)!.get(plan.stream)!;
      if (!plan.cached) return this.folded(plan.cell, aggregate, { id, stream: plan.stream, context, snapshot: plan.snapshot, stored });
      return (await this.continued(plan.cell, aggregate, plan.stream, plan.cached, stored)) ?? this.load(plan.cell, aggregate, id, context);
    });
  }

  /** The stream's kept fold, if any; one of another tenant or environment is not found. */
  private cachedFold<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    id: string,
    context: RequestContext,
  ): CachedFold<S, R> | undefined {
    const cached = this.foldsOf(cell).get<S, R>(stream);
    if (cached && !ownedBy(cached.owner, context)) throw aggregate.notFound(id);
    return cached;
  }

  private async snapshotOf<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    id: string,
    context: RequestContext,
  ): Promise<Snapshot<Snapshotted<S, R>> | undefined> {
    const snapshot = aggregate.snapshot ? await cell.snapshots.load<Snapshotted<S, R>>(stream, aggregate.snapshot.version) : undefined;
    if (snapshot && !ownedBy(snapshot.state.owner, context)) throw aggregate.notFound(id);
    return snapshot;
  }

  /** The aggregate folded from its snapshot (or the start) and the events stored after it; kept when it may be. */
  private async folded<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    { id, stream, context, snapshot, stored, asOf }: FromStart<S, R>,
  ): Promise<Loaded<S, R>> {
    if (!snapshot && stored.length > 0 && !ownedBy(stored[0].metadata, context)) throw aggregate.notFound(id);
    const events: HistoryEvent[] = [];
    for (const { position: _position, ...event } of stored) {
      if (asOf && new Date(event.metadata.occurred_at) > asOf) continue;
      events.push({ ...event, data: await cell.pii.decode(event.type, event.data) });
    }
    const from: FoldedAggregate<S, R> = snapshot
      ? { state: snapshot.state.state, resource: snapshot.state.resource, revision: snapshot.revision }
      : { state: aggregate.decider.initialState(), resource: undefined, revision: -1 };
    const commandIds = new Set([...(snapshot?.state.command_ids ?? []), ...events.flatMap((event) => (event.metadata.command_id ? [event.metadata.command_id] : []))]);
    const clockId = snapshot ? snapshot.state.clock_id : stored[0]?.metadata.clock_id;
    const loaded: Loaded<S, R> = { ...foldEvents(aggregate, from, events), snapshotRevision: snapshot?.revision ?? -1, commandIds, ...(clockId && { clockId }) };
    const owner = snapshot ? snapshot.state.owner : stored[0]?.metadata;
    if (!asOf && owner && loaded.revision >= 0 && !this.holdsPersonalData(cell, stored)) {
      this.foldsOf(cell).set(stream, { ...loaded, owner: { tenant_id: owner.tenant_id, environment: owner.environment } });
    }
    return loaded;
  }

  private foldsOf(cell: Cell): FoldCache {
    let folds = this.folds.get(cell);
    if (!folds) {
      folds = new FoldCache();
      this.folds.set(cell, folds);
    }
    return folds;
  }

  /**
   * The cached fold brought up to date with the events stored after it (by anyone), or
   * undefined when they may hold personal data (the stream is then no longer cached, and is read
   * from the start).
   */
  private async continued<S, C extends Command, E extends Event, R extends ResourceDoc>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E, R>,
    stream: string,
    cached: CachedFold<S, R>,
    stored: readonly RecordedEvent[],
  ): Promise<Loaded<S, R> | undefined> {
    if (stored.length === 0) return loadedOf(cached);
    if (this.holdsPersonalData(cell, stored)) {
      this.foldsOf(cell).delete(stream);
      return undefined;
    }
    const events: HistoryEvent[] = [];
    for (const { position: _position, ...event } of stored) events.push({ ...event, data: await cell.pii.decode(event.type, event.data) });
    const next = this.extended(aggregate, cached, events);
    this.foldsOf(cell).set(stream, next);
    return loadedOf(next);
  }

  /** The fold with these events (which follow it) folded in. */
  private extended<S, C extends Command, E extends Event, R extends ResourceDoc>(
    aggregate: AggregateDefinition<S, C, E, R>,
    cached: CachedFold<S, R>,
    events: readonly HistoryEvent[],
  ): CachedFold<S, R> {
    return { ...cached, ...foldEvents(aggregate, cached, events), commandIds: withIds(cached.commandIds, events) };
  }

  /**
   * After a successful append: the fold the append left (of the events as stored), kept when the
   * fold before the append was the one kept (or the stream was new); with personal data in the
   * appended events (`stored` undefined) the stream is no longer kept.
   */
  private keepAppended<S, R>(
    cell: Cell,
    stream: string,
    loaded: Loaded<S, R>,
    after: FoldedAggregate<S, R>,
    stored: readonly HistoryEvent[] | undefined,
    at: { snapshotRevision: number; context: RequestContext },
  ): void {
    const folds = this.foldsOf(cell);
    if (!stored) {
      folds.delete(stream);
      return;
    }
    const cached = loaded.revision < 0 ? unbornFold<S, R>(loaded.state, at.context) : folds.get<S, R>(stream);
    if (!cached || cached.revision !== loaded.revision) return;
    // A new stream's clock is the one its first event names, as a load would tell.
    const clockId = loaded.revision < 0 ? stored[0].metadata.clock_id : cached.clockId;
    folds.set(stream, {
      owner: cached.owner,
      state: after.state,
      resource: after.resource,
      revision: after.revision,
      snapshotRevision: at.snapshotRevision,
      commandIds: withIds(cached.commandIds, stored),
      ...(clockId && { clockId }),
    });
  }

  private holdsPersonalData(cell: Cell, events: readonly { type: string; data: unknown }[]): boolean {
    return events.some((event) => cell.pii.mayHoldPersonalData(event.type, event.data));
  }

  private async encode(cell: Cell, events: readonly HistoryEvent[]): Promise<NewEvent[]> {
    return Promise.all(events.map(async ({ id, type, data, metadata }) => ({ id, type, metadata, data: await cell.pii.encode(type, data) })));
  }

  private async saveSnapshot<S, R>(
    cell: Cell,
    version: number,
    stream: string,
    folded: FoldedAggregate<S, R> & { commandIds: string[]; clockId: string | undefined },
    context: RequestContext,
  ): Promise<void> {
    const owner = { tenant_id: context.tenantId, environment: context.environment };
    const { state, resource, revision, commandIds, clockId } = folded;
    const snapshot: Snapshotted<S, R> = { owner, state, resource, command_ids: commandIds, ...(clockId && { clock_id: clockId }) };
    await cell.snapshots.save({ stream, revision, version, state: snapshot });
  }
}

/** What a snapshot holds: whose aggregate it is, and the fold of its stream. */
interface Snapshotted<S, R> {
  owner: Pick<EventMetadata, 'tenant_id' | 'environment'>;
  state: S;
  resource: R | undefined;
  /** The last command ids the stream applied. */
  command_ids?: string[];
  clock_id?: string;
}

const ownedBy = (owner: Pick<EventMetadata, 'tenant_id' | 'environment'>, context: RequestContext): boolean =>
  owner.tenant_id === context.tenantId && owner.environment === context.environment;

const preconditionFailed = (expected: number, actual: number | 'no_stream'): DomainError =>
  new DomainError(
    'request.precondition_failed',
    'precondition',
    `If-Match names revision ${expected}, but the resource is at revision ${actual === 'no_stream' ? 'none' : actual}`,
  );

/** Appended events as a read gives them back: data and metadata through JSON (encoded holds no personal data). */
const asStored = (appended: readonly HistoryEvent[], encoded: readonly NewEvent[]): HistoryEvent[] =>
  appended.map((event, i) => ({ ...event, data: jsonCopy(encoded[i].data ?? null), metadata: jsonCopy(event.metadata) as EventMetadata }));

/** The applied command ids with those the events carry. */
const withIds = (commandIds: ReadonlySet<string>, events: readonly HistoryEvent[]): ReadonlySet<string> => {
  const added = events.flatMap((event) => (event.metadata.command_id ? [event.metadata.command_id] : []));
  return added.length === 0 ? commandIds : new Set([...commandIds, ...added]);
};

const loadedOf = <S, R>({ owner: _owner, ...loaded }: CachedFold<S, R>): Loaded<S, R> => loaded;

/** The fold of a stream about to get its first events, owned by the context's tenant and environment. */
const unbornFold = <S, R>(state: S, context: RequestContext): CachedFold<S, R> => ({
  state,
  resource: undefined,
  revision: -1,
  snapshotRevision: -1,
  commandIds: new Set(),
  owner: { tenant_id: context.tenantId, environment: context.environment },
});

/** An aggregate before its first event. */
const unborn = <S, R>(state: S): Loaded<S, R> => ({
  state,
  resource: undefined,
  revision: -1,
  snapshotRevision: -1,
  commandIds: new Set(),
});
