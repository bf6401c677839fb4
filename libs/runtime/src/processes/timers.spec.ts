import { ManualClock, UlidGenerator, type ProcessDecider, type ProcessInput, type ProcessOutput } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { ProcessManager } from './process-manager';
import { TempWorker } from './testing/temp-worker';

/** A reminder per `reminder-<id>` stream: a timer at `due_at`, one SendReminder when it fires, none after a cancel. */
type ReminderState = { reminderId?: string; timerId?: string; done: boolean };

const remindersDecider: ProcessDecider<ReminderState> = {
  initialState: () => ({ done: false }),
  evolve(state, message) {
    if (message.kind === 'event' && message.type === 'ReminderScheduled') return { ...state, reminderId: (message.data as { reminder_id: string }).reminder_id };
    if (message.kind === 'schedule') return { ...state, timerId: message.timerId };
    if (message.kind === 'cancel' || (message.kind === 'event' && message.type === 'ReminderSent')) return { ...state, done: true };
    return state;
  },
  decide(input: ProcessInput, state: ReminderState): ProcessOutput[] {
    const data = input.data as { reminder_id: string; due_at?: string; timer_id?: string; timer?: string };
    switch (input.type) {
      case 'ReminderRequested':
        return [
          { kind: 'event', type: 'ReminderScheduled', data: { reminder_id: data.reminder_id } },
          { kind: 'schedule', timerId: data.timer ?? `${data.reminder_id}:due`, dueAt: data.due_at! },
        ];
      case 'ReminderCancelled':
        return state.timerId && !state.done ? [{ kind: 'cancel', timerId: state.timerId }] : [];
      case 'TimerFired':
        if (state.done || state.timerId !== data.timer_id) return [];
        return [
          { kind: 'command', command: { type: 'SendReminder', data: { reminder_id: state.reminderId } } },
          { kind: 'event', type: 'ReminderSent', data: { reminder_id: state.reminderId } },
        ];
      default:
        return [];
    }
  },
};

class Reminders implements ProcessManager<ReminderState> {
  readonly name = 'reminders';
  readonly streamPrefixes = ['reminder-'];
  readonly decider = remindersDecider;
  readonly sent: string[] = [];

  route(event: RecordedEvent) {
    const reminderId = event.stream.slice('reminder-'.length);
    return { processId: reminderId, input: { id: event.id, type: event.type, data: { ...(event.data as object), reminder_id: reminderId } } };
  }
  async dispatch(command: { type: string; data: unknown }) {
    this.sent.push((command.data as { reminder_id: string }).reminder_id);
  }
}

describe('process managers with durable timers', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const log = { error: (message: string, error: unknown) => console.error(message, error) };
  let reminders: Reminders;
  let running: TempWorker;

  const request = async (id: string, type: string, data: object) => {
    const stream = `reminder-${id}`;
    const existing = await running.cells.cell('eu').events.readStream(stream);
    await running.cells.cell('eu').events.append(stream, [{ id: ids.ulid(), type, data, metadata: testMetadata(clock.now().toISOString()) }], {
      expectedRevision: existing.length === 0 ? 'no_stream' : existing.length - 1,
    });
    await running.worker.settle();
  };

  beforeEach(async () => {
    reminders = new Reminders();
    running = new TempWorker(new TempCells(clock), { projections: [], processes: [reminders as ProcessManager], clock, ids, log });
    await running.start();
  });

  afterEach(() => running.end());

  it('keeps a timer across a restart and fires it when the clock reaches it', async () => {
    await request('r1', 'ReminderRequested', { due_at: '2026-05-01T11:00:00.000Z' });
    await running.restart();
    expect(await running.worker.fireDueTimers()).toBe(0);
    clock.set('2026-05-01T11:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(1);
    await running.worker.settle();
    expect(reminders.sent).toEqual(['r1']);
    await running.restart();
    expect(await running.worker.fireDueTimers()).toBe(0);
    expect(reminders.sent).toEqual(['r1']);
  });

  it('fires a timer once even when it is delivered again before the timers read model caught up', async () => {
    await request('r2', 'ReminderRequested', { due_at: '2026-05-01T10:30:00.000Z' });
    clock.set('2026-05-01T10:30:00.000Z');
    const [first, second] = await Promise.all([running.worker.fireDueTimers(), running.worker.fireDueTimers()]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    await running.cells.cell('eu').readModels.commit([{ op: 'upsert', collection: 'timers', doc: { ...(await running.cells.cell('eu').readModels.get('timers', 'pm.reminders-r2/r2:due'))!, status: 'pending' }, position: 0n }]);
    await running.restart();
    await running.worker.fireDueTimers();
    await running.worker.settle();
    expect(reminders.sent).toEqual(['r2']);
    const stream = await running.cells.cell('eu').events.readStream('pm.reminders-r2');
    expect(stream.filter((e) => e.metadata.input_id === 'timer:r2:due')).toHaveLength(3);
    expect(stream.filter((e) => e.type === 'ProcessCommandIssued')).toHaveLength(1);
  });

  it('fires timers of the same name in different processes, each in its own', async () => {
    await request('r5', 'ReminderRequested', { due_at: '2026-05-01T10:20:00.000Z', timer: 'due' });
    await request('r6', 'ReminderRequested', { due_at: '2026-05-01T10:20:00.000Z', timer: 'due' });
    clock.set('2026-05-01T10:20:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(2);
    await running.worker.settle();
    expect(reminders.sent.sort()).toEqual(['r5', 'r6']);
  });

  it('ignores a cancelled timer', async () => {
    await request('r3', 'ReminderRequested', { due_at: '2026-05-01T10:10:00.000Z' });
    await request('r3', 'ReminderCancelled', {});
    clock.set('2026-05-02T00:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(0);
    expect(reminders.sent).toEqual([]);
  });

  it('handles a redelivered input once: the process stream records which inputs it answered', async () => {
    await request('r4', 'ReminderRequested', { due_at: '2026-05-01T12:00:00.000Z' });
    await running.cells.cell('eu').readModels.commit([], { name: 'pm:reminders', position: 0n });
    await running.restart();
    await running.worker.settle();
    const stream = await running.cells.cell('eu').events.readStream('pm.reminders-r4');
    expect(stream.map((e) => e.type)).toEqual(['ProcessInputReceived', 'ReminderScheduled', 'ProcessTimerScheduled']);
  });
});
