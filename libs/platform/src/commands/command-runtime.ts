import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, type Clock, type Command, type Event, type IdGenerator } from '@tally/kernel';
import { WrongExpectedRevisionError, type EventMetadata, type NewEvent } from '@tally/eventstore';
import type { CellRegistry } from '../cells/cell-registry';
import type { Cell } from '../cells/cell';
import type { RequestContext } from '../context/request-context';
import { streamName, type AggregateDefinition } from './aggregate-definition';
import type { HistoryEvent } from './history-event';

export interface CommandOptions {
  /** The revision the client last saw (`If-Match`); a mismatch answers 412 instead of retrying. */
  expectedRevision?: number;
}

export interface CommandOutcome<S> {
  state: S;
  /** Revision of the stream's last event after the command (-1: the stream is still empty). */
  revision: number;
  /** The events this command appended (empty when it was already satisfied). */
  appended: HistoryEvent[];
  /** The whole stream after the command, when no snapshot shortened the read. */
  history: HistoryEvent[];
}

interface Loaded<S> {
  state: S;
  revision: number;
  history: HistoryEvent[];
  /** Revision of the snapshot the state started from (-1: none). */
  snapshotRevision: number;
}

const MAX_ATTEMPTS = 8;

/**
 * Read the aggregate's stream, decide, append with the expected revision. A concurrent writer
 * makes the append fail; the runtime then re-reads and decides again, a bounded number of
 * times, so no update is lost. With a pinned revision (If-Match) it fails with 412 instead.
 */
export class CommandRuntime {
  constructor(
    private readonly cells: CellRegistry,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute<S, C extends Command, E extends Event>(
    aggregate: AggregateDefinition<S, C, E>,
    id: string,
    command: C,
    context: RequestContext,
    options: CommandOptions = {},
  ): Promise<CommandOutcome<S>> {
    const cell = this.cells.cell(context.region);
    const stream = streamName(aggregate.type, id);
    for (let attempt = 1; ; attempt++) {
      const loaded = await this.load(cell, aggregate, id, context);
      if (options.expectedRevision !== undefined && options.expectedRevision !== loaded.revision) {
        throw preconditionFailed(options.expectedRevision, loaded.revision);
      }
      const decided = aggregate.decider.decide(command, loaded.state);
      if (decided.length === 0) return { state: loaded.state, revision: loaded.revision, history: loaded.history, appended: [] };

      const metadata = this.metadata(context);
      const appended: HistoryEvent[] = decided.map((event, i) => ({
        id: this.ids.ulid(),
        type: event.type,
        data: event.data,
        metadata: { ...metadata, schema_version: cell.upcasters.currentVersion(event.type) },
        stream,
        revision: loaded.revision + 1 + i,
      }));
      try {
        await cell.events.append(stream, await this.encode(cell, appended), {
          expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision,
        });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (options.expectedRevision !== undefined) throw preconditionFailed(options.expectedRevision, error.actual);
        if (attempt >= MAX_ATTEMPTS) throw DomainError.conflict('request.concurrent_update', 'The resource kept changing while this request ran; retry it');
        await sleep(attempt * 5 + Math.floor(Math.random() * 10));
        continue;
      }
      const state = decided.reduce(aggregate.decider.evolve, loaded.state);
      const revision = loaded.revision + decided.length;
      if (aggregate.snapshot && revision - loaded.snapshotRevision >= aggregate.snapshot.every) {
        await this.saveSnapshot(cell, aggregate.snapshot.version, stream, state, revision, context);
      }
      return { state, revision, appended, history: [...loaded.history, ...appended] };
    }
  }

  cellOf(context: RequestContext): Cell {
    return this.cells.cell(context.region);
  }

  /** The aggregate as it is now; an aggregate of another tenant or environment does not exist. */
  async load<S, C extends Command, E extends Event>(
    cell: Cell,
    aggregate: AggregateDefinition<S, C, E>,
    id: string,
    context: RequestContext,
  ): Promise<Loaded<S>> {
    const stream = streamName(aggregate.type, id);
    const snapshot = aggregate.snapshot ? await cell.snapshots.load<Owned<S>>(stream, aggregate.snapshot.version) : undefined;
    if (snapshot && !ownedBy(snapshot.state.owner, context)) throw aggregate.notFound(id);
    const stored = await cell.events.readStream(stream, { fromRevision: snapshot ? snapshot.revision + 1 : 0 });
    if (!snapshot && stored.length > 0 && !ownedBy(stored[0].metadata, context)) throw aggregate.notFound(id);
    const history: HistoryEvent[] = [];
    for (const { position: _position, ...event } of stored) {
      history.push({ ...event, data: await cell.pii.decode(event.type, event.data) });
    }
    const state = history.reduce((s, e) => aggregate.decider.evolve(s, e as unknown as E), snapshot ? snapshot.state.state : aggregate.decider.initialState());
    const revision = history.length > 0 ? history[history.length - 1].revision : snapshot ? snapshot.revision : -1;
    return { state, revision, history: snapshot ? [] : history, snapshotRevision: snapshot?.revision ?? -1 };
  }

  private metadata(context: RequestContext): Omit<EventMetadata, 'schema_version'> {
    return {
      tenant_id: context.tenantId,
      environment: context.environment,
      actor: context.actor,
      request_id: context.requestId,
      correlation_id: context.correlationId ?? context.requestId,
      causation_id: context.causationId ?? context.requestId,
      occurred_at: this.clock.now().toISOString(),
    };
  }

  private async encode(cell: Cell, events: readonly HistoryEvent[]): Promise<NewEvent[]> {
    return Promise.all(events.map(async ({ id, type, data, metadata }) => ({ id, type, metadata, data: await cell.pii.encode(type, data) })));
  }

  private async saveSnapshot<S>(cell: Cell, version: number, stream: string, state: S, revision: number, context: RequestContext): Promise<void> {
    const owner = { tenant_id: context.tenantId, environment: context.environment };
    await cell.snapshots.save({ stream, revision, version, state: { owner, state } satisfies Owned<S> });
  }
}

interface Owned<S> {
  owner: Pick<EventMetadata, 'tenant_id' | 'environment'>;
  state: S;
}

const ownedBy = (owner: Pick<EventMetadata, 'tenant_id' | 'environment'>, context: RequestContext): boolean =>
  owner.tenant_id === context.tenantId && owner.environment === context.environment;

const preconditionFailed = (expected: number, actual: number | 'no_stream'): DomainError =>
  new DomainError(
    'request.precondition_failed',
    'precondition',
    `If-Match names revision ${expected}, but the resource is at revision ${actual === 'no_stream' ? 'none' : actual}`,
  );
