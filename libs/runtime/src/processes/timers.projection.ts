import { TIMER_FIRED } from '@tally/kernel';
import type { Projection } from '../projections/projection';
import { ProcessEvents, splitProcessStream, type InputReceivedData, type TimerScheduledData } from './process-manager';

export const TIMERS = 'timers';

export interface TimerDoc {
  /** The process stream and the timer's name (see timerDocId): names repeat across processes. */
  id: string;
  [key: string]: unknown;
  /** The name its process gave it, e.g. `period_end:2026-02-01T00:00:00.000Z`. */
  timer_id: string;
  process: string;
  process_id: string;
  due_at: string;
  /** `system`, or the id of the test clock whose advances fire it. */
  clock: string;
  status: 'pending' | 'fired' | 'cancelled';
  tenant_id: string;
  environment: string;
}

/** Every timer a process manager set, ordered by clock and due time; rebuilt from the process streams like any read model. */
export const timersProjection: Projection = {
  name: 'timers',
  streamPrefixes: ['pm.'],
  collections: [{ name: TIMERS, indexes: [{ fields: ['clock', 'status', 'due_at'] }] }],
  async handle(event, writer) {
    if (event.type === ProcessEvents.timerScheduled) {
      const { timer_id, due_at, clock } = event.data as TimerScheduledData;
      const { name, processId } = splitProcessStream(event.stream);
      writer.upsert(TIMERS, {
        id: timerDocId(event.stream, timer_id),
        timer_id,
        process: name,
        process_id: processId,
        due_at,
        clock: clock ?? 'system',
        status: 'pending',
        tenant_id: event.metadata.tenant_id,
        environment: event.metadata.environment,
      } satisfies TimerDoc);
      return;
    }
    const timerId = endedTimer(event);
    if (!timerId) return;
    const timer = await writer.get<TimerDoc>(TIMERS, timerDocId(event.stream, timerId.id));
    if (timer?.status === 'pending') writer.upsert(TIMERS, { ...timer, status: timerId.status });
  },
};

/**
 * A timer's document: timers are named by their process (every subscription's cycle has its
 * `period_end:<instant>`), so the document is keyed by the process stream as well.
 */
export const timerDocId = (processStream: string, timerId: string): string => `${processStream}/${timerId}`;

/** The timer a process event ends: fired (its input was handled) or cancelled. */
function endedTimer(event: { type: string; data: unknown }): { id: string; status: 'fired' | 'cancelled' } | undefined {
  if (event.type === ProcessEvents.timerCancelled) return { id: (event.data as { timer_id: string }).timer_id, status: 'cancelled' };
  if (event.type !== ProcessEvents.inputReceived) return undefined;
  const received = event.data as InputReceivedData;
  return received.input_type === TIMER_FIRED ? { id: (received.data as { timer_id: string }).timer_id, status: 'fired' } : undefined;
}
