import { DomainError, ManualClock, UlidGenerator, type Command, type Decider, type Event } from '@tally/kernel';
import type { EventStore, NewEvent } from '@tally/eventstore';
import type { CellRegistry, RequestContext } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { ResourceView } from '../public-events/resource-view';
import type { AggregateDefinition } from './aggregate-definition';
import { CommandRuntime, scopedCommandId } from './command-runtime';
import { Clocks } from '../clocks/clocks';

type Counted = Event<'Counted', { by: number }>;
type Count = Command<'Count' | 'CountAgain', { by: number; limit?: number }>;
const counter: Decider<{ total: number }, Count, Counted> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide: (command, state) => {
    if (command.data.limit !== undefined && state.total + command.data.by > command.data.limit) throw DomainError.conflict('counter.limit', 'over the limit');
    return command.data.by === 0 ? [] : [{ type: 'Counted', data: { by: command.data.by } }];
  },
};
type CounterResource = { id: string; object: 'counter'; total: number; created_at: string; updated_at: string };

const counterView: ResourceView<CounterResource> = {
  aggregateType: 'counter',
  collection: 'counters',
  apply: (resource, event) => ({
    id: event.stream.slice('counter-'.length),
    object: 'counter',
    total: (resource?.total ?? 0) + (event.data as Counted['data']).by,
    created_at: resource?.created_at ?? event.metadata.occurred_at,
    updated_at: event.metadata.occurred_at,
  }),
  publicTypes: [],
  publicType: () => undefined,
};

const counterAggregate: AggregateDefinition<{ total: number }, Count, Counted, CounterResource> = {
  type: 'counter',
  decider: counter,
  view: counterView,
  notFound: (id) => DomainError.notFound('counter.not_found', id),
  snapshot: { every: 1_000, version: 1 },
};
const context: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null };

describe('CommandRuntime', () => {
  const clock = new ManualClock();
  const ids = new UlidGenerator(clock);
  let temp: TempCells;
  let cells: CellRegistry;
  let runtime: CommandRuntime;

  beforeEach(() => {
    temp = new TempCells(clock);
    cells = temp.open();
    runtime = new CommandRuntime(cells, new Clocks(clock), ids);
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  it('loads a stream of 100,000 events from a snapshot and reads only its tail', async () => {
    const events = cells.cell('eu').events;
    await appendCounted(events, 'counter-c1', 100_000, ids);
    const reads = spyOnReads(events);

    const first = await runtime.execute(counterAggregate, 'c1', { type: 'Count', data: { by: 1 } }, context);
    expect(first.state.total).toBe(100_001);
    expect(reads.lastLength).toBe(100_000);

    const second = await runtime.execute(counterAggregate, 'c1', { type: 'Count', data: { by: 1 } }, context);
    expect(second.state.total).toBe(100_002);
    expect(second.revision).toBe(100_001);
    expect(reads.lastLength).toBe(0);
  });

  it('answers with the resource as the append left it, also when the stream was loaded from a snapshot', async () => {
    const everyThird = { ...counterAggregate, snapshot: { every: 3, version: 1 } };
    const reads = spyOnReads(cells.cell('eu').events);
    const times: string[] = [];
    const outcomes = [];
    for (const by of [1, 2, 3, 4]) {
      times.push(clock.advance(1_000).toISOString());
      outcomes.push(await runtime.execute(everyThird, 'c6', { type: 'Count', data: { by } }, context));
    }

    // The third command left a snapshot at revision 2, so the fourth read no event at all.
    expect(reads.lastLength).toBe(0);
    const fourth = outcomes[3];
    expect(fourth.revision).toBe(3);
    expect(fourth.state).toEqual({ total: 10 });
    expect(fourth.resource).toEqual({ id: 'c6', object: 'counter', total: 10, created_at: times[0], updated_at: times[3] });
    expect(outcomes.map((o) => o.resource?.total)).toEqual([1, 3, 6, 10]);
    const nothingToDo = await runtime.execute(everyThird, 'c6', { type: 'Count', data: { by: 0 } }, context);
    expect(nothingToDo).toMatchObject({ appended: [], revision: 3, resource: fourth.resource });

    const loaded = await runtime.load(cells.cell('eu'), everyThird, 'c6', context);
    expect(loaded).toMatchObject({ snapshotRevision: 2, revision: 3, resource: fourth.resource });
    const asOfSecond = await runtime.load(cells.cell('eu'), everyThird, 'c6', context, { asOf: new Date(times[1]) });
    expect(asOfSecond).toMatchObject({ snapshotRevision: -1, revision: 1, state: { total: 3 }, resource: { total: 3, updated_at: times[1] } });
  });

  it('retries a command whose append lost a race, so concurrent writers lose no update', async () => {
    await Promise.all(Array.from({ length: 20 }, () => runtime.execute(counterAggregate, 'c2', { type: 'Count', data: { by: 1 } }, context)));
    const { state, revision } = await runtime.load(cells.cell('eu'), counterAggregate, 'c2', context);
    expect(state.total).toBe(20);
    expect(revision).toBe(19);
  });

  it('decides again on the fresh state after a conflict, so a rule still holds under concurrency', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => runtime.execute(counterAggregate, 'c3', { type: 'Count', data: { by: 1, limit: 5 } }, context)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await runtime.load(cells.cell('eu'), counterAggregate, 'c3', context)).state.total).toBe(5);
  });

  it('answers 412 when the pinned revision is not the current one', async () => {
    await runtime.execute(counterAggregate, 'c4', { type: 'Count', data: { by: 1 } }, context);
    await expect(runtime.execute(counterAggregate, 'c4', { type: 'Count', data: { by: 1 } }, context, { expectedRevision: 5 })).rejects.toMatchObject({
      code: 'request.precondition_failed',
    });
  });

  it('applies a command id once per command type: another command sent with the same context is applied, not swallowed', async () => {
    const dispatched = { ...context, commandId: 'cmd_01JCOMMAND0000000000000009' };
    await runtime.execute(counterAggregate, 'c9', { type: 'Count', data: { by: 1 } }, dispatched);
    const other = await runtime.execute(counterAggregate, 'c9', { type: 'CountAgain', data: { by: 2 } }, dispatched);
    expect(other.state.total).toBe(3);
    const redelivered = await runtime.execute(counterAggregate, 'c9', { type: 'CountAgain', data: { by: 2 } }, dispatched);
    expect(redelivered.appended).toEqual([]);
    expect(redelivered.state.total).toBe(3);
  });

  it('honours a command id stored before ids were scoped by type', async () => {
    const legacyId = 'cmd_01JCOMMAND0000000000000010';
    const events = cells.cell('eu').events;
    await events.append('counter-c10', [{ id: ids.ulid(), type: 'Counted', data: { by: 1 }, metadata: { ...testMetadata('2026-01-01T00:00:00.000Z'), command_id: legacyId } }], { expectedRevision: 'no_stream' });
    const redelivered = await runtime.execute(counterAggregate, 'c10', { type: 'Count', data: { by: 1 } }, { ...context, commandId: legacyId });
    expect(redelivered.appended).toEqual([]);
    expect(redelivered.state.total).toBe(1);
  });

  it('applies a command id once per stream: a redelivered command changes nothing, also after a snapshot', async () => {
    const dispatched = { ...context, commandId: 'cmd_01JCOMMAND0000000000000000' };
    const first = await runtime.execute(counterAggregate, 'c6', { type: 'Count', data: { by: 1 } }, dispatched);
    expect(first.appended.map((event) => event.metadata.command_id)).toEqual([scopedCommandId(dispatched.commandId, 'Count')]);
    const again = await runtime.execute(counterAggregate, 'c6', { type: 'Count', data: { by: 1 } }, dispatched);
    expect(again.appended).toEqual([]);
    expect(again.state.total).toBe(1);
    await runtime.execute(counterAggregate, 'c6', { type: 'Count', data: { by: 1 } }, { ...context, commandId: 'cmd_01JCOMMAND0000000000000001' });

    const events = cells.cell('eu').events;
    await appendCounted(events, 'counter-c7', 1_000, ids);
    await runtime.execute(counterAggregate, 'c7', { type: 'Count', data: { by: 1 } }, dispatched);
    const afterSnapshot = await runtime.execute(counterAggregate, 'c7', { type: 'Count', data: { by: 1 } }, dispatched);
    expect(afterSnapshot.appended).toEqual([]);
    expect(afterSnapshot.state.total).toBe(1_001);
    expect((await runtime.load(cells.cell('eu'), counterAggregate, 'c6', context)).state.total).toBe(2);
  });

  it('decides the first command of a new stream without reading it, and reads it after all when the id is taken', async () => {
    const reads = spyOnReads(cells.cell('eu').events);
    const created = await runtime.execute(counterAggregate, 'c7', { type: 'Count', data: { by: 2 } }, context, { newStream: true });
    expect(reads.calls).toBe(0);
    expect(created).toMatchObject({ revision: 0, resource: { id: 'c7', total: 2 } });

    const collided = await runtime.execute(counterAggregate, 'c7', { type: 'Count', data: { by: 3 } }, context, { newStream: true });
    expect(reads.calls).toBe(1);
    expect(collided).toMatchObject({ revision: 1, resource: { id: 'c7', total: 5 } });
  });

  it('builds a command from "now" on the clock the aggregate lives on, and its events occur at that moment', async () => {
    const frozen = '2031-03-15T08:00:00.000Z';
    const metadata = testMetadata(clock.now().toISOString());
    await cells.cell('eu').events.append('test_clock-clock_1', [{ id: ids.ulid(), type: 'TestClockCreated', data: { test_clock_id: 'clock_1', now: frozen }, metadata }], { expectedRevision: 'no_stream' });
    const seen: string[] = [];
    const { appended } = await runtime.execute(counterAggregate, 'c8', (now) => (seen.push(now), { type: 'Count', data: { by: 1 } }), { ...context, clockId: 'clock_1' });
    expect(seen).toEqual([frozen]);
    expect(appended.map((event) => event.metadata.occurred_at)).toEqual([frozen]);
  });

  it('keeps the last fold of a stream and reads only the events appended after it, also by another writer', async () => {
    const cell = cells.cell('eu');
    const reads = spyOnReads(cell.events);
    await runtime.execute(counterAggregate, 'c9', { type: 'Count', data: { by: 1 } }, context, { newStream: true });
    await runtime.execute(counterAggregate, 'c9', { type: 'Count', data: { by: 2 } }, context);
    // The fold the first append left was kept: the second command read no event.
    expect(reads.lastLength).toBe(0);

    // Another process (a runtime of its own) appends; this runtime's next load reads just that event.
    const other = new CommandRuntime(cells, new Clocks(clock), ids);
    await other.execute(counterAggregate, 'c9', { type: 'Count', data: { by: 4 } }, context);
    const loaded = await runtime.load(cell, counterAggregate, 'c9', context);
    expect(reads.lastLength).toBe(1);
    expect(loaded).toMatchObject({ revision: 2, state: { total: 7 }, resource: { total: 7 } });

    // A decision on the kept fold still appends at the right revision, and no update is lost.
    await Promise.all([runtime, other, runtime].map((writer) => writer.execute(counterAggregate, 'c9', { type: 'Count', data: { by: 1 } }, context)));
    expect((await runtime.load(cell, counterAggregate, 'c9', context)).state.total).toBe(10);
    expect((await other.load(cell, counterAggregate, 'c9', context)).revision).toBe(5);
    await expect(runtime.load(cell, counterAggregate, 'c9', { ...context, tenantId: 'ten_other' })).rejects.toMatchObject({ code: 'counter.not_found' });
  });

  it("treats another tenant's aggregate as missing", async () => {
    await runtime.execute(counterAggregate, 'c5', { type: 'Count', data: { by: 1 } }, context);
    const stranger = { ...context, tenantId: 'ten_other' };
    await expect(runtime.execute(counterAggregate, 'c5', { type: 'Count', data: { by: 1 } }, stranger)).rejects.toMatchObject({ code: 'counter.not_found' });
    await expect(runtime.load(cells.cell('eu'), counterAggregate, 'c5', { ...context, environment: 'live' })).rejects.toMatchObject({ code: 'counter.not_found' });
  });

  describe('executeEach: a page of commands', () => {
    const count = (id: string, by: number, commandContext: RequestContext = context, limit?: number) => ({
      id,
      command: { type: 'Count' as const, data: { by, ...(limit !== undefined && { limit }) } },
      context: commandContext,
    });

    it('reads the page in one batched read, decides each, and runs the commands to one aggregate in order', async () => {
      const events = cells.cell('eu').events;
      await appendCounted(events, 'counter-p1', 1_000, ids);
      const reads = spyOnReads(events);
      const batched = jest.spyOn(events, 'readStreams');

      const settled = await runtime.executeEach(counterAggregate, [count('p1', 1), count('p2', 2), count('p1', 3), count('p3', 0)]);

      expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.state.total : outcome.reason))).toEqual([1_001, 2, 1_004, 0]);
      expect(settled.map((outcome) => outcome.status === 'fulfilled' && outcome.value.appended.length)).toEqual([1, 1, 1, 0]);
      // Round one read p1, p2 and p3 in one call; round two, p1's kept fold, whose end is known.
      expect(batched.mock.calls.map(([asked]) => asked.map(({ stream }) => stream))).toEqual([['counter-p1', 'counter-p2', 'counter-p3'], ['counter-p1']]);
      expect(reads.calls).toBe(0);
      expect((await runtime.load(cells.cell('eu'), counterAggregate, 'p1', context)).revision).toBe(1_001);
    });

    it('answers an already applied command id with nothing appended, as execute does', async () => {
      const dispatched = { ...context, commandId: 'cmd_01JCOMMAND0000000000000020' };
      await runtime.execute(counterAggregate, 'p4', { type: 'Count', data: { by: 1 } }, dispatched);
      const fresh = new CommandRuntime(cells, new Clocks(clock), ids);

      const [again, other] = await fresh.executeEach(counterAggregate, [count('p4', 1, dispatched), count('p5', 1, dispatched)]);

      expect(again).toMatchObject({ status: 'fulfilled', value: { appended: [], revision: 0, state: { total: 1 } } });
      expect(other).toMatchObject({ status: 'fulfilled', value: { revision: 0, state: { total: 1 } } });
    });

    it('refuses one command of the page, not the page: the others are applied', async () => {
      await runtime.execute(counterAggregate, 'p7', { type: 'Count', data: { by: 4 } }, context);
      await runtime.execute(counterAggregate, 'p9', { type: 'Count', data: { by: 1 } }, context);
      const settled = await runtime.executeEach(counterAggregate, [count('p6', 1), count('p7', 2, context, 5), count('p8', 1), count('p9', 1, { ...context, tenantId: 'ten_other' })]);

      expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      expect(settled[1]).toMatchObject({ reason: { code: 'counter.limit' } });
      expect(settled[3]).toMatchObject({ reason: { code: 'counter.not_found' } });
      expect((await runtime.load(cells.cell('eu'), counterAggregate, 'p7', context)).state.total).toBe(4);
      expect((await runtime.load(cells.cell('eu'), counterAggregate, 'p8', context)).state.total).toBe(1);
    });

    it('sends a command whose append met a concurrent writer through execute, which reads again: no update is lost', async () => {
      await runtime.execute(counterAggregate, 'p10', { type: 'Count', data: { by: 1 } }, context);
      const other = new CommandRuntime(cells, new Clocks(clock), ids);
      let builds = 0;
      const racing = {
        id: 'p10',
        context,
        command: async (_now: string, state: { total: number }): Promise<Count> => {
          // Another writer appends between this page's read and its append, once.
          if (builds++ === 0) await other.execute(counterAggregate, 'p10', { type: 'Count', data: { by: 10 } }, context);
          return { type: 'Count', data: { by: 100, limit: state.total + 100 } };
        },
      };

      const [raced, calm] = await runtime.executeEach(counterAggregate, [racing, count('p11', 1)]);

      expect(builds).toBe(2);
      expect(raced).toMatchObject({ status: 'fulfilled', value: { revision: 2, state: { total: 111 } } });
      expect(calm).toMatchObject({ status: 'fulfilled', value: { revision: 0, state: { total: 1 } } });
      expect((await other.load(cells.cell('eu'), counterAggregate, 'p10', context)).state.total).toBe(111);
    });
  });

  describe('executeBatch: several commands to one aggregate', () => {
    const counting = (by: number, commandContext: RequestContext = context, limit?: number) => ({
      command: { type: 'Count' as const, data: { by, ...(limit !== undefined && { limit }) } },
      context: commandContext,
    });
    const requested = (requestId: string, commandId?: string): RequestContext => ({ ...context, requestId, ...(commandId && { commandId }) });

    it('decides each on the state the previous left and appends them all in one append, each event with its own request', async () => {
      await runtime.execute(counterAggregate, 'b1', { type: 'Count', data: { by: 1 } }, context);
      const append = jest.spyOn(cells.cell('eu').events, 'append');

      const settled = await runtime.executeBatch(counterAggregate, 'b1', [counting(1, requested('req_a')), counting(0, requested('req_b')), counting(2, requested('req_c'))]);

      expect(settled.map((outcome) => outcome.status === 'fulfilled' && [outcome.value.state.total, outcome.value.revision, outcome.value.appended.length])).toEqual([
        [2, 1, 1],
        [2, 1, 0],
        [4, 2, 1],
      ]);
      expect(append).toHaveBeenCalledTimes(1);
      const stored = await cells.cell('eu').events.readStream('counter-b1', { fromRevision: 1 });
      expect(stored.map((event) => [event.metadata.request_id, event.metadata.causation_id])).toEqual([
        ['req_a', 'req_a'],
        ['req_c', 'req_c'],
      ]);
      expect((await new CommandRuntime(cells, new Clocks(clock), ids).load(cells.cell('eu'), counterAggregate, 'b1', context)).resource).toMatchObject({ total: 4 });
    });

    it('refuses one command of the batch, not the batch: the others are decided on the state without it', async () => {
      const settled = await runtime.executeBatch(counterAggregate, 'b2', [counting(3, context, 5), counting(3, context, 5), counting(2, context, 5)]);

      expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.state.total : (outcome.reason as DomainError).code))).toEqual([3, 'counter.limit', 5]);
      expect((await runtime.load(cells.cell('eu'), counterAggregate, 'b2', context)).revision).toBe(1);
    });

    it('applies each command id once, within the batch and after it, also after a snapshot', async () => {
      const everyTwo = { ...counterAggregate, snapshot: { every: 2, version: 1 } };
      const once = requested('req_once', 'cmd_01JCOMMAND0000000000000030');
      const settled = await runtime.executeBatch(everyTwo, 'b3', [counting(1, once), counting(1, once), counting(1, requested('req_other'))]);
      expect(settled.map((outcome) => outcome.status === 'fulfilled' && outcome.value.appended.length)).toEqual([1, 0, 1]);

      const fresh = new CommandRuntime(cells, new Clocks(clock), ids);
      const [again] = await fresh.executeBatch(everyTwo, 'b3', [counting(1, once)]);
      expect(again).toMatchObject({ status: 'fulfilled', value: { appended: [], state: { total: 2 } } });
    });

    it('decides the whole batch again on the fresh state when its append meets a concurrent writer: nothing twice, no rule on a stale state', async () => {
      await runtime.execute(counterAggregate, 'b4', { type: 'Count', data: { by: 1 } }, context);
      const other = new CommandRuntime(cells, new Clocks(clock), ids);
      let builds = 0;
      const racing = async (): Promise<Count> => {
        // Another writer appends between this batch's read and its append, once.
        if (builds++ === 0) await other.execute(counterAggregate, 'b4', { type: 'Count', data: { by: 3 } }, context);
        return { type: 'Count', data: { by: 1 } };
      };

      const settled = await runtime.executeBatch(counterAggregate, 'b4', [{ command: racing, context }, counting(2, context, 6), counting(1, context, 6)]);

      expect(builds).toBe(2);
      expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.state.total : (outcome.reason as DomainError).code))).toEqual([5, 'counter.limit', 6]);
      expect((await other.load(cells.cell('eu'), counterAggregate, 'b4', context)).state.total).toBe(6);
    });

    it("answers each command of a batch on another tenant's aggregate as missing", async () => {
      await runtime.execute(counterAggregate, 'b5', { type: 'Count', data: { by: 1 } }, context);
      const outsider = { ...context, tenantId: 'ten_other' };
      const settled = await runtime.executeBatch(counterAggregate, 'b5', [counting(1, outsider), counting(1, outsider)]);
      expect(settled).toMatchObject([{ reason: { code: 'counter.not_found' } }, { reason: { code: 'counter.not_found' } }]);
      await expect(runtime.executeBatch(counterAggregate, 'b5', [counting(1), counting(1, outsider)])).rejects.toThrow('one tenant');
    });
  });
});

async function appendCounted(events: EventStore, stream: string, count: number, ids: UlidGenerator): Promise<void> {
  const metadata = testMetadata('2026-01-01T00:00:00.000Z');
  for (let from = 0; from < count; from += 1_000) {
    const batch: NewEvent[] = Array.from({ length: 1_000 }, () => ({ id: ids.ulid(), type: 'Counted', data: { by: 1 }, metadata }));
    await events.append(stream, batch, { expectedRevision: from === 0 ? 'no_stream' : from - 1 });
  }
}

function spyOnReads(events: EventStore): { lastLength: number; calls: number } {
  const seen = { lastLength: -1, calls: 0 };
  const readStream = events.readStream.bind(events);
  events.readStream = async (stream, options) => {
    const read = await readStream(stream, options);
    seen.lastLength = read.length;
    seen.calls += 1;
    return read;
  };
  return seen;
}
