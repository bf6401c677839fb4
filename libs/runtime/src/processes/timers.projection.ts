import { TIMER_FIRED } from '@tally/kernel';
import type { Projection } from '../projections/projection';
import { ProcessEvents, splitProcessStream, type InputReceivedData, type TimerScheduledData } from './process-manager';

export const TIMERS = 'timers';

export interface TimerDoc {
  /** `timerDocId`: a timer id names a timer within its process only. */
  id: string;
  [key: string]: unknown;
  /** The id the process gave it (absent in documents written before it was recorded: then `id`). */
  timer_id?: string;
  process: string;
  process_id: string;
  due_at: string;
  /** `system`, or the id of the test clock whose advances fire it. */
  clock: string;
  status: 'pending' | 'fired' | 'cancelled';
  tenant_id: string;
  environment: string;
}

/**
 * A process names its timers for itself (`trial_end`, `period_end:<when>`): two processes, or two
 * instances of one, may use the same name, so the document's id adds whose timer it is.
 */
export const timerDocId = (process: string, processId: string, timerId: string): string => `${process}/${processId}/${timerId}`;

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
        id: timerDocId(name, processId, timer_id),
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
    const { name, processId } = splitProcessStream(event.stream);
    const timer = await writer.get<TimerDoc>(TIMERS, timerDocId(name, processId, timerId.id));
    if (timer?.status === 'pending') writer.upsert(TIMERS, { ...timer, status: timerId.status });
  },
};

/** The timer a process event ends: fired (its input was handled) or cancelled. */
function endedTimer(event: { type: string; data: unknown }): { id: string; status: 'fired' | 'cancelled' } | undefined {
  if (event.type === ProcessEvents.timerCancelled) return { id: (event.data as { timer_id: string }).timer_id, status: 'cancelled' };
  if (event.type !== ProcessEvents.inputReceived) return undefined;
  const received = event.data as InputReceivedData;
  return received.input_type === TIMER_FIRED ? { id: (received.data as { timer_id: string }).timer_id, status: 'fired' } : undefined;
}
