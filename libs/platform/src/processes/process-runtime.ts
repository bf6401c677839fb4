import { DomainError, type Clock, type IdGenerator } from '@tally/kernel';
import { WrongExpectedRevisionError, type EventMetadata, type NewEvent, type RecordedEvent } from '@tally/eventstore';
import type { Cell } from '../cells/cell';
import type { RunnerLog } from '../runtime/supervise';
import type { RequestContext } from '../context/request-context';
import { ProcessEvents, TIMER_FIRED_INPUT, processStream, type ProcessInput, type ProcessManager, type ProcessOutput } from './process-manager';

const MAX_ATTEMPTS = 5;

export type ProcessOwner = Pick<EventMetadata, 'tenant_id' | 'environment' | 'correlation_id'>;

/**
 * Delivers inputs to one process manager: reads its stream, skips an input it has handled
 * already (re-dispatching the commands that input issued, in case the crash came before they
 * ran), otherwise decides and appends the outputs tagged with the input id in one write, then
 * dispatches the issued commands.
 */
export class ProcessRuntime<S> {
  constructor(
    readonly manager: ProcessManager<S>,
    private readonly cell: Cell,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly log: RunnerLog,
  ) {}

  async deliver(processId: string, input: ProcessInput, owner: ProcessOwner): Promise<void> {
    const stream = processStream(this.manager.name, processId);
    const context = this.contextFor(owner, input);
    for (let attempt = 1; ; attempt++) {
      const history = await this.cell.events.readStream(stream);
      const answered = history.filter((event) => event.metadata.input_id === input.id);
      if (answered.length > 0) return this.dispatchIssued(answered, context);

      const state = history.reduce((s, e) => this.manager.evolve(s, e), this.manager.initialState());
      const outputs = this.manager.decide(input, state);
      const events = this.toEvents(outputs, input, context);
      if (events.length === 0) return;
      try {
        const revision = history.length - 1;
        await this.cell.events.append(stream, events, { expectedRevision: revision < 0 ? 'no_stream' : revision });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        continue;
      }
      return this.dispatchIssued(events, context);
    }
  }

  private toEvents(outputs: readonly ProcessOutput[], input: ProcessInput, context: RequestContext): NewEvent[] {
    const metadata: Omit<EventMetadata, 'schema_version'> = {
      tenant_id: context.tenantId,
      environment: context.environment,
      actor: context.actor,
      request_id: null,
      correlation_id: context.correlationId,
      causation_id: context.causationId,
      occurred_at: this.clock.now().toISOString(),
      input_id: input.id,
    };
    const events = outputs.map(eventOf);
    if (input.type === TIMER_FIRED_INPUT) events.push({ type: ProcessEvents.timerFired, data: input.data });
    return events.map((event) => ({ id: this.ids.ulid(), ...event, metadata: { ...metadata, schema_version: this.cell.upcasters.currentVersion(event.type) } }));
  }

  private async dispatchIssued(events: readonly Pick<NewEvent, 'type' | 'data'>[], context: RequestContext): Promise<void> {
    for (const event of events) {
      if (event.type !== ProcessEvents.commandIssued) continue;
      try {
        await this.manager.dispatch(event.data as { type: string; data: unknown }, context);
      } catch (error) {
        // A command its target refuses for good (a broken rule, not an outage) would fail the
        // same way on every redelivery; log it and let the flow go on instead of stalling it.
        if (!(error instanceof DomainError)) throw error;
        this.log.error(`process ${this.manager.name}: command refused`, error);
      }
    }
  }

  private contextFor(owner: ProcessOwner, input: ProcessInput): RequestContext {
    return {
      tenantId: owner.tenant_id,
      environment: owner.environment,
      region: this.cell.region,
      actor: `process:${this.manager.name}`,
      requestId: null,
      correlationId: owner.correlation_id,
      causationId: input.id,
    };
  }
}

function eventOf(output: ProcessOutput): { type: string; data: unknown } {
  switch (output.kind) {
    case 'command':
      return { type: ProcessEvents.commandIssued, data: { type: output.type, data: output.data } };
    case 'schedule':
      return { type: ProcessEvents.timerScheduled, data: { timer_id: output.timerId, due_at: output.dueAt } };
    case 'cancel':
      return { type: ProcessEvents.timerCancelled, data: { timer_id: output.timerId } };
    case 'event':
      return { type: output.type, data: output.data };
  }
}

export const ownerOf = (event: RecordedEvent): ProcessOwner => ({
  tenant_id: event.metadata.tenant_id,
  environment: event.metadata.environment,
  correlation_id: event.metadata.correlation_id,
});
