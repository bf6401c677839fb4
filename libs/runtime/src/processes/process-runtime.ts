import { derivedId, jsonCopy, type IdGenerator, type ProcessInput, type ProcessMessage, type ProcessOutput } from '@tally/kernel';
import { WrongExpectedRevisionError, type EventMetadata, type NewEvent, type RecordedEvent } from '@tally/eventstore';
import type { Cell } from '@tally/cells';
import type { Clocks } from '../clocks/clocks';
import { eventMetadata } from '../commands/event-metadata';
import { ProcessEvents, processStream, SYSTEM_CLOCK, type CommandIssuedData, type InputReceivedData, type IssuedCommand, type ProcessManager, type TimerScheduledData } from './process-manager';

const MAX_ATTEMPTS = 5;
/** Process streams whose fold is kept in memory; the least recently used leaves first. */
const KEPT_STREAMS = 10_000;
/**
 * How many of its latest input ids a fold (and a snapshot) remembers. An input is delivered again
 * only when a runner resumes from its checkpoint, which trails what it handled by at most a batch
 * (500 events and a window, see followInBatches), or when a fired timer is fired again before the
 * timers read model saw it fire: recent inputs, far fewer than this.
 */
export const KEPT_INPUT_IDS = 1_000;

/** A process stream folded up to `revision`, the ids of its latest inputs, and the revision of its latest snapshot (-1: none). */
interface KeptProcess<S> {
  revision: number;
  state: S;
  inputIds: ReadonlySet<string>;
  snapshotRevision: number;
}

/** What a process snapshot holds: the fold of its stream and the ids of its latest inputs. */
interface ProcessSnapshot<S> {
  state: S;
  input_ids: string[];
}

/** Whose flow an input belongs to: taken from the event that started it, and kept by everything the flow does. */
export type ProcessOwner = Pick<EventMetadata, 'tenant_id' | 'environment' | 'correlation_id' | 'clock_id'>;

/**
 * Delivers inputs to one process manager: reads its stream, skips an input it has handled
 * already, otherwise decides and appends the input and its outputs in one write (commands with
 * deterministic ids, timers on the owner's clock). It dispatches nothing: the command dispatcher
 * follows the process streams and executes what they issued.
 */
export class ProcessRuntime<S> {
  /**
   * The last fold of each process stream, so that a delivery reads only the events appended after
   * it (a stream's events never change once appended, so the fold of revisions 0…r stays valid).
   * Only streams without personal data are kept (erasure must leave nothing readable behind).
   */
  private readonly kept = new Map<string, KeptProcess<S>>();

  constructor(
    readonly manager: ProcessManager<S>,
    private readonly cell: Cell,
    private readonly clocks: Clocks,
    private readonly ids: IdGenerator,
  ) {}

  async deliver(processId: string, input: ProcessInput, owner: ProcessOwner): Promise<void> {
    const stream = processStream(this.manager.name, processId);
    for (let attempt = 1; ; attempt++) {
      const folded = await this.fold(stream);
      if (folded.inputIds.has(input.id)) return;
      if (folded.revision < 0 && this.manager.startsOn && !this.manager.startsOn.includes(input.type)) return;
      const outputs = this.manager.decider.decide(input as never, folded.state);
      const events = await this.toEvents(stream, input, outputs, owner);
      try {
        await this.cell.events.append(stream, events, { expectedRevision: folded.revision < 0 ? 'no_stream' : folded.revision });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        continue;
      }
      const after = this.keepAppended(stream, folded, events);
      if (after) await this.snapshotIfDue(stream, after);
      return;
    }
  }

  /** The process's state as its stream is now: the kept fold, else its snapshot, and the events after it. */
  private async fold(stream: string): Promise<KeptProcess<S>> {
    const from = this.kept.get(stream) ?? (await this.snapshotOf(stream)) ?? { revision: -1, state: this.manager.decider.initialState(), inputIds: new Set<string>(), snapshotRevision: -1 };
    const tail = await this.read(stream, from.revision + 1);
    const next = this.folded(from, tail);
    if (tail.some((event) => this.cell.pii.mayHoldPersonalData(event.type, event.data))) this.kept.delete(stream);
    else if (next.revision >= 0) this.keep(stream, next);
    return next;
  }

  private folded(from: KeptProcess<S>, events: readonly { type: string; data: unknown; metadata: EventMetadata }[]): KeptProcess<S> {
    if (events.length === 0) return from;
    const inputIds = events.flatMap((event) => (event.metadata.input_id === undefined ? [] : [event.metadata.input_id]));
    return {
      revision: from.revision + events.length,
      state: events.flatMap(messageOf).reduce(this.manager.decider.evolve, from.state),
      inputIds: inputIds.length === 0 ? from.inputIds : latest(new Set([...from.inputIds, ...inputIds])),
      snapshotRevision: from.snapshotRevision,
    };
  }

  /**
   * After an append: the fold as a delivery would read it back (the events as stored, through
   * JSON), kept and answered, unless they may hold personal data or another delivery moved on.
   */
  private keepAppended(stream: string, before: KeptProcess<S>, appended: readonly NewEvent[]): KeptProcess<S> | undefined {
    if (appended.some((event) => this.cell.pii.mayHoldPersonalData(event.type, event.data))) {
      this.kept.delete(stream);
      return undefined;
    }
    const kept = this.kept.get(stream);
    if (before.revision >= 0 && kept?.revision !== before.revision) return undefined;
    const stored = appended.map((event) => ({ type: event.type, data: jsonCopy(event.data ?? null), metadata: jsonCopy(event.metadata) as EventMetadata }));
    const after = this.folded(before, stored);
    this.keep(stream, after);
    return after;
  }

  /** The stream's snapshot as a fold to go on from, for a manager that takes snapshots. */
  private async snapshotOf(stream: string): Promise<KeptProcess<S> | undefined> {
    const policy = this.manager.snapshot;
    const snapshot = policy && (await this.cell.snapshots.load<ProcessSnapshot<S>>(stream, policy.version));
    if (!snapshot) return undefined;
    return { revision: snapshot.revision, state: snapshot.state.state, inputIds: new Set(snapshot.state.input_ids), snapshotRevision: snapshot.revision };
  }

  /** Saves the fold as the stream's snapshot once `every` events have followed the last one. */
  private async snapshotIfDue(stream: string, fold: KeptProcess<S>): Promise<void> {
    const policy = this.manager.snapshot;
    if (!policy || fold.revision - fold.snapshotRevision < policy.every) return;
    const state: ProcessSnapshot<S> = { state: fold.state, input_ids: [...fold.inputIds] };
    await this.cell.snapshots.save({ stream, revision: fold.revision, version: policy.version, state });
    this.keep(stream, { ...fold, snapshotRevision: fold.revision });
  }

  private keep(stream: string, fold: KeptProcess<S>): void {
    const kept = this.kept.get(stream);
    if (kept && kept.revision > fold.revision) return;
    this.kept.delete(stream);
    this.kept.set(stream, fold);
    if (this.kept.size > KEPT_STREAMS) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The process's stream with personal data decrypted. */
  async read(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const stored = await this.cell.events.readStream(stream, { fromRevision });
    return Promise.all(stored.map(async (event) => ({ ...event, data: await this.cell.pii.decode(event.type, event.data) })));
  }

  private async toEvents(stream: string, input: ProcessInput, outputs: readonly ProcessOutput[], owner: ProcessOwner): Promise<NewEvent[]> {
    const context = { tenantId: owner.tenant_id, environment: owner.environment, region: this.cell.region, actor: `process:${this.manager.name}`, requestId: null, correlationId: owner.correlation_id, causationId: input.id };
    const metadata = { ...eventMetadata(context, await this.clocks.now(this.cell, owner.clock_id), owner.clock_id), input_id: input.id };
    const received: InputReceivedData = { input_id: input.id, input_type: input.type, subject: this.subjectOf(input), data: input.data };
    const events = [
      { type: ProcessEvents.inputReceived, data: received },
      ...outputs.map((output, index) => this.eventOf(output, { stream, input, index, clock: owner.clock_id ?? SYSTEM_CLOCK })),
    ];
    return Promise.all(
      events.map(async ({ type, data }) => ({
        id: this.ids.ulid(),
        type,
        metadata: { ...metadata, schema_version: this.cell.upcasters.currentVersion(type) },
        data: await this.cell.pii.encode(type, data),
      })),
    );
  }

  private eventOf(output: ProcessOutput, at: { stream: string; input: ProcessInput; index: number; clock: string }): { type: string; data: unknown } {
    switch (output.kind) {
      case 'command': {
        const { type, data } = output.command;
        const issued: CommandIssuedData = { command_id: issuedCommandId(at.stream, at.input.id, at.index), type, subject: this.subjectOf(output.command), data };
        return { type: ProcessEvents.commandIssued, data: issued };
      }
      case 'schedule':
        return { type: ProcessEvents.timerScheduled, data: { timer_id: output.timerId, due_at: output.dueAt, clock: at.clock } satisfies TimerScheduledData };
      case 'cancel':
        return { type: ProcessEvents.timerCancelled, data: { timer_id: output.timerId } };
      case 'event':
        return { type: output.type, data: output.data };
    }
  }

  private subjectOf(message: { type: string; data: unknown }): string | null {
    return this.manager.subjectOf?.(message) ?? null;
  }
}

/** The ids of the latest KEPT_INPUT_IDS inputs (a set keeps the order they were added in). */
const latest = (inputIds: Set<string>): ReadonlySet<string> => (inputIds.size <= KEPT_INPUT_IDS ? inputIds : new Set([...inputIds].slice(-KEPT_INPUT_IDS)));

/** The same input of the same process issues the same command ids, however often it is delivered. */
export const issuedCommandId = (stream: string, inputId: string, index: number): string => derivedId('cmd', [stream, inputId, String(index)]);

/** A stored event of a process stream as the message its decider folds. */
export function messageOf(event: { type: string; data: unknown }): ProcessMessage[] {
  switch (event.type) {
    case ProcessEvents.inputReceived: {
      const { input_id, input_type, data } = event.data as InputReceivedData;
      return [{ kind: 'input', input: { id: input_id, type: input_type, data } }];
    }
    case ProcessEvents.commandIssued: {
      const { type, data } = event.data as CommandIssuedData;
      return [{ kind: 'command', command: { type, data } satisfies IssuedCommand }];
    }
    case ProcessEvents.timerScheduled: {
      const { timer_id, due_at } = event.data as TimerScheduledData;
      return [{ kind: 'schedule', timerId: timer_id, dueAt: due_at }];
    }
    case ProcessEvents.timerCancelled:
      return [{ kind: 'cancel', timerId: (event.data as { timer_id: string }).timer_id }];
    default:
      return [{ kind: 'event', type: event.type, data: event.data }];
  }
}

export const ownerOf = (event: RecordedEvent): ProcessOwner => ({
  tenant_id: event.metadata.tenant_id,
  environment: event.metadata.environment,
  correlation_id: event.metadata.correlation_id,
  ...(event.metadata.clock_id && { clock_id: event.metadata.clock_id }),
});
