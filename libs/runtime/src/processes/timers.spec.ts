import { DomainError, ManualClock, UlidGenerator, type AggregateTimers, type Command, type Decider, type Event, type ProcessDecider, type ProcessInput, type ProcessOutput } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { RequestContext } from '@tally/cells';
import { Clocks } from '../clocks/clocks';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import { CommandRuntime } from '../commands/command-runtime';
import { rebuildProjections } from '../projections/rebuild';
import { bindingsFor } from '../worker';
import { AGGREGATE_TIMERS, aggregateTimersProjection, type AggregateTimerDoc } from './aggregate-timers.projection';
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

/** An alarm aggregate: setting it schedules its ring, disarming it cancels the ring, and it rings once. */
type AlarmCommand = Command<'SetAlarm', { due_at: string }> | Command<'Ring', { due_at: string }> | Command<'Disarm', Record<string, never>>;
type AlarmEvent = Event<'AlarmSet', { due_at: string }> | Event<'AlarmRang', { due_at: string }> | Event<'AlarmDisarmed', Record<string, never>>;
type AlarmState = { status: 'none' | 'set' | 'rang' | 'disarmed'; dueAt?: string };

const alarmDecider: Decider<AlarmState, AlarmCommand, AlarmEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => (event.type === 'AlarmSet' ? { status: 'set', dueAt: event.data.due_at } : event.type === 'AlarmRang' ? { ...state, status: 'rang' } : { ...state, status: 'disarmed' }),
  decide(command, state) {
    if (command.type === 'SetAlarm') return [{ type: 'AlarmSet', data: command.data }];
    if (command.type === 'Disarm') return [{ type: 'AlarmDisarmed', data: {} }];
    return state.status === 'set' && state.dueAt === command.data.due_at ? [{ type: 'AlarmRang', data: command.data }] : [];
  },
};
const alarmTimers: AggregateTimers<AlarmCommand, AlarmEvent> = (event) => {
  if (event.type === 'AlarmSet') return [{ schedule: { name: `ring:${event.data.due_at}`, due_at: event.data.due_at, command: { type: 'Ring', data: { due_at: event.data.due_at } } } }];
  return event.type === 'AlarmDisarmed' ? [{ cancelEvery: 'ring:' }] : [];
};
const alarmAggregate: AggregateDefinition<AlarmState, AlarmCommand, AlarmEvent> = {
  type: 'alarm',
  decider: alarmDecider,
  notFound: (id) => DomainError.notFound('alarm.not_found', `No alarm ${id}`),
  timers: alarmTimers,
};

describe('aggregate timers', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const log = { error: () => undefined };
  const context: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null };
  const projections = [aggregateTimersProjection([alarmAggregate])];
  let running: TempWorker;

  const send = async (id: string, command: AlarmCommand) => {
    await new CommandRuntime(running.cells, new Clocks(clock), ids).execute(alarmAggregate, id, command, context);
    await running.worker.settle();
  };
  const eventsOf = async (id: string) => (await running.cells.cell('eu').events.readStream(`alarm-${id}`)).map((event) => event.type);
  const timer = (id: string, name: string) => running.cells.cell('eu').readModels.get<AggregateTimerDoc>(AGGREGATE_TIMERS, `alarm-${id}/${name}`);

  beforeEach(async () => {
    clock.set('2026-05-01T10:00:00.000Z');
    running = new TempWorker(new TempCells(clock), { projections, timedAggregates: [alarmAggregate], clock, ids, log });
    await running.start();
  });

  afterEach(() => running.end());

  it('comes back to its aggregate as its command when due, once, and the read model shows it fired', async () => {
    await send('a1', { type: 'SetAlarm', data: { due_at: '2026-05-01T11:00:00.000Z' } });
    expect(await running.worker.fireDueTimers()).toBe(0);
    clock.set('2026-05-01T11:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(1);
    await running.worker.settle();
    expect(await eventsOf('a1')).toEqual(['AlarmSet', 'AlarmRang']);
    expect(await timer('a1', 'ring:2026-05-01T11:00:00.000Z')).toMatchObject({ status: 'fired', clock: 'system' });
    expect(await running.worker.fireDueTimers()).toBe(0);
  });

  it('applies a timer delivered twice before the read model caught up once: its command id derives from the timer', async () => {
    await send('a2', { type: 'SetAlarm', data: { due_at: '2026-05-01T10:30:00.000Z' } });
    clock.set('2026-05-01T10:30:00.000Z');
    await Promise.all([running.worker.fireDueTimers(), running.worker.fireDueTimers()]);
    await running.cells.cell('eu').readModels.commit([{ op: 'upsert', collection: AGGREGATE_TIMERS, doc: { ...(await timer('a2', 'ring:2026-05-01T10:30:00.000Z'))!, status: 'pending' }, position: 0n }]);
    await running.worker.fireDueTimers();
    await running.worker.settle();
    expect(await eventsOf('a2')).toEqual(['AlarmSet', 'AlarmRang']);
  });

  it('never fires a cancelled timer', async () => {
    await send('a3', { type: 'SetAlarm', data: { due_at: '2026-05-01T10:10:00.000Z' } });
    await send('a3', { type: 'Disarm', data: {} });
    clock.set('2026-05-02T00:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(0);
    expect(await eventsOf('a3')).toEqual(['AlarmSet', 'AlarmDisarmed']);
    expect(await timer('a3', 'ring:2026-05-01T10:10:00.000Z')).toMatchObject({ status: 'cancelled' });
  });

  it('delivers a timer whose command decides nothing (its aggregate moved on) once, not at every tick', async () => {
    await send('a4', { type: 'SetAlarm', data: { due_at: '2026-05-01T10:20:00.000Z' } });
    // A second alarm replaces the first without cancelling its ring: that ring is stale.
    await send('a4', { type: 'SetAlarm', data: { due_at: '2026-05-01T12:00:00.000Z' } });
    clock.set('2026-05-01T10:20:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(1);
    await running.worker.settle();
    expect(await running.worker.fireDueTimers()).toBe(0);
    expect(await eventsOf('a4')).toEqual(['AlarmSet', 'AlarmSet']);
  });

  it('rebuilt from scratch, the timers read model fires nothing twice: a fired timer is read back from its stream', async () => {
    await send('a5', { type: 'SetAlarm', data: { due_at: '2026-05-01T10:40:00.000Z' } });
    await send('a6', { type: 'SetAlarm', data: { due_at: '2026-05-01T13:00:00.000Z' } });
    clock.set('2026-05-01T11:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(1);
    await running.worker.settle();
    await running.worker.stop();
    const cell = running.cells.cell('eu');
    await rebuildProjections(bindingsFor(cell, running.cells, projections));
    await running.restart();
    expect(await timer('a5', 'ring:2026-05-01T10:40:00.000Z')).toMatchObject({ status: 'fired' });
    expect(await running.worker.fireDueTimers()).toBe(0);
    clock.set('2026-05-01T13:00:00.000Z');
    expect(await running.worker.fireDueTimers()).toBe(1);
    await running.worker.settle();
    expect([await eventsOf('a5'), await eventsOf('a6')]).toEqual([
      ['AlarmSet', 'AlarmRang'],
      ['AlarmSet', 'AlarmRang'],
    ]);
  });
});

describe('timers of a process that no longer runs', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);

  it('never fire and are not counted', async () => {
    const running = new TempWorker(new TempCells(clock), { projections: [], processes: [new Reminders() as ProcessManager], clock, ids, log: { error: () => undefined } });
    await running.start();
    try {
      const timerScheduled = { id: ids.ulid(), type: 'ProcessTimerScheduled', data: { timer_id: 'period_end', due_at: '2026-05-01T10:05:00.000Z', clock: 'system' }, metadata: testMetadata(clock.now().toISOString()) };
      await running.cells.cell('eu').events.append('pm.retired-p1', [timerScheduled], { expectedRevision: 'no_stream' });
      await running.worker.settle();
      expect(await running.cells.cell('eu').readModels.get('timers', 'pm.retired-p1/period_end')).toMatchObject({ status: 'pending' });
      clock.set('2026-05-01T11:00:00.000Z');
      expect(await running.worker.fireDueTimers()).toBe(0);
    } finally {
      await running.end();
    }
  });
});
