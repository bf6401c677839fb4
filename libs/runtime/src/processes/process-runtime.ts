import { derivedId, type IdGenerator, type ProcessInput, type ProcessMessage, type ProcessOutput } from '@tally/kernel';
import { WrongExpectedRevisionError, type EventMetadata, type NewEvent, type RecordedEvent } from '@tally/eventstore';
import type { Cell } from '@tally/cells';
import type { Clocks } from '../clocks/clocks';
import { eventMetadata } from '../commands/event-metadata';
import { ProcessEvents, processStream, SYSTEM_CLOCK, type CommandIssuedData, type InputReceivedData, type IssuedCommand, type ProcessManager, type TimerScheduledData } from './process-manager';

const MAX_ATTEMPTS = 5;
/** Process streams whose fold is kept in memory; the least recently used leaves first. */
const KEPT_STREAMS = 10_000;

/** A process stream folded up to `revision`, and the ids of the inputs it has handled. */
interface KeptProcess<S> {
  revision: number;
  state: S;
  inputIds: ReadonlySet<string>;
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
      const { revision, state, inputIds } = await this.fold(stream);
      if (inputIds.has(input.id)) return;
      const outputs = this.manager.decider.decide(input as never, state);
      const events = await this.toEvents(stream, input, outputs, owner);
      try {
        await this.cell.events.append(stream, events, { expectedRevision: revision < 0 ? 'no_stream' : revision });
        this.keepAppended(stream, { revision, state, inputIds }, events);
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** The process's state as its stream is now: the kept fold and the events after it, or the whole stream. */
  private async fold(stream: string): Promise<KeptProcess<S>> {
    const kept = this.kept.get(stream);
    const from: KeptProcess<S> = kept ?? { revision: -1, state: this.manager.decider.initialState(), inputIds: new Set() };
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
      inputIds: inputIds.length === 0 ? from.inputIds : new Set([...from.inputIds, ...inputIds]),
    };
  }

  /** After an append: the fold as a delivery would read it back (the events as stored, through JSON), unless they may hold personal data. */
  private keepAppended(stream: string, before: KeptProcess<S>, appended: readonly NewEvent[]): void {
    if (appended.some((event) => this.cell.pii.mayHoldPersonalData(event.type, event.data))) {
      this.kept.delete(stream);
      return;
    }
    const kept = this.kept.get(stream);
    if (before.revision >= 0 && kept?.revision !== before.revision) return;
    const stored = appended.map((event) => ({ type: event.type, data: JSON.parse(JSON.stringify(event.data ?? null)), metadata: JSON.parse(JSON.stringify(event.metadata)) as EventMetadata }));
    this.keep(stream, this.folded(before, stored));
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
