import type { Clock, IdGenerator, ProcessDecider, ProcessInput } from '@tally/kernel';
import type { EventStore, RecordedEvent } from '@tally/eventstore';
import type { ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';

export const PROBE_STREAM = 'probe-';
/** Where each dispatch of a probe's command leaves one event, so that a second dispatch shows. */
export const DISPATCHED_STREAM = 'probe.dispatched-';

type State = { requested: boolean; rang: boolean };

/**
 * The process manager of the lease test. `ProbeRequested {due_at}` on `probe-<id>` issues the
 * command `Probe` and sets a timer at `due_at`; the timer firing records `ProbeRang`. Dispatching
 * `Probe` appends `Probed {pid}` to `probe.dispatched-<id>` with no idempotency at all, so every
 * dispatch is counted, and says which worker process made it.
 */
const probeDecider: ProcessDecider<State> = {
  initialState: () => ({ requested: false, rang: false }),
  evolve(state, message) {
    if (message.kind === 'command') return { ...state, requested: true };
    if (message.kind === 'event' && message.type === 'ProbeRang') return { ...state, rang: true };
    return state;
  },
  decide(input: ProcessInput, state) {
    const data = input.data as { probe_id: string; due_at: string; timer_id: string };
    if (input.type === 'ProbeRequested' && !state.requested) {
      return [
        { kind: 'command', command: { type: 'Probe', data: { probe_id: data.probe_id } } },
        { kind: 'schedule', timerId: `${data.probe_id}:ring`, dueAt: data.due_at },
      ];
    }
    if (input.type === 'TimerFired' && !state.rang) return [{ kind: 'event', type: 'ProbeRang', data: { timer_id: data.timer_id } }];
    return [];
  },
};

export class LeaseProbe implements ProcessManager<State> {
  readonly name = 'lease_probe';
  readonly streamPrefixes = [PROBE_STREAM];
  readonly decider = probeDecider;

  constructor(
    private readonly events: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  route(event: RecordedEvent) {
    if (event.type !== 'ProbeRequested') return undefined;
    const probeId = event.stream.slice(PROBE_STREAM.length);
    return { processId: probeId, input: { id: event.id, type: event.type, data: { probe_id: probeId, due_at: (event.data as { due_at: string }).due_at } } };
  }

  async dispatch(command: { type: string; data: unknown }, context: RequestContext): Promise<void> {
    const { probe_id } = command.data as { probe_id: string };
    const metadata = {
      tenant_id: context.tenantId,
      environment: context.environment,
      actor: context.actor,
      request_id: null,
      causation_id: context.causationId,
      correlation_id: context.correlationId,
      occurred_at: this.clock.now().toISOString(),
      schema_version: 1,
    };
    await this.events.append(`${DISPATCHED_STREAM}${probe_id}`, [{ id: this.ids.ulid(), type: 'Probed', data: { pid: process.pid }, metadata }], { expectedRevision: 'any' });
  }
}
