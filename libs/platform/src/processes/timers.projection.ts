import type { Projection } from '../projections/projection';
import { ProcessEvents } from './process-manager';

export const TIMERS = 'timers';

export interface TimerDoc {
  id: string;
  [key: string]: unknown;
  process: string;
  process_id: string;
  due_at: string;
  status: 'pending' | 'fired' | 'cancelled';
  tenant_id: string;
  environment: string;
}

/** Every timer a process manager set, ordered by due time; rebuilt from the process streams like any read model. */
export const timersProjection: Projection = {
  name: 'timers',
  streamPrefixes: ['pm.'],
  collections: [{ name: TIMERS, indexes: [{ fields: ['status', 'due_at'] }] }],
  async handle(event, writer) {
    const data = event.data as { timer_id: string; due_at?: string };
    if (event.type === ProcessEvents.timerScheduled) {
      const [process, processId] = splitProcessStream(event.stream);
      writer.upsert(TIMERS, {
        id: data.timer_id,
        process,
        process_id: processId,
        due_at: data.due_at!,
        status: 'pending',
        tenant_id: event.metadata.tenant_id,
        environment: event.metadata.environment,
      } satisfies TimerDoc);
      return;
    }
    const status = event.type === ProcessEvents.timerFired ? 'fired' : event.type === ProcessEvents.timerCancelled ? 'cancelled' : undefined;
    if (!status) return;
    const timer = await writer.get<TimerDoc>(TIMERS, data.timer_id);
    if (timer?.status === 'pending') writer.upsert(TIMERS, { ...timer, status });
  },
};

function splitProcessStream(stream: string): [string, string] {
  const dash = stream.indexOf('-');
  return [stream.slice('pm.'.length, dash), stream.slice(dash + 1)];
}
