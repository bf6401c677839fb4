import { ManualClock, UlidGenerator } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import { PARKED_EVENT, RETRIED_EVENT } from './command-dispatcher';
import { PARKED_COMMANDS, type ParkedCommandDoc } from './parked-commands.projection';
import { processStream } from './process-manager';
import { processPii } from './process-pii';
import type { Reaction } from './reaction';
import { reactionCommandId } from './reaction-runner';
import { ScriptedDispatches } from './testing/scripted-dispatches';
import { TempWorker } from './testing/temp-worker';

type Ship = { type: 'Ship'; data: { order_id: string } };

/** Ships every paid order; what each dispatch does is up to the test. */
class Shipping extends ScriptedDispatches implements Reaction<Ship> {
  readonly name = 'shipping';
  readonly streamPrefixes = ['order-'];
  parkWhenRefused: string[] | undefined;

  commandOf(event: RecordedEvent) {
    if (event.type !== 'OrderPaid') return undefined;
    const orderId = (event.data as { order_id: string }).order_id;
    return { lane: orderId, command: { type: 'Ship' as const, data: { order_id: orderId } } };
  }

  async dispatch(command: Ship, context: RequestContext) {
    this.receive(command.data.order_id, context);
  }
}

describe('a reaction', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const errors: string[] = [];
  let shipping: Shipping;
  let running: TempWorker;

  const record = async (orderId: string, type: string) => {
    const id = ids.ulid();
    await running.cells.cell('eu').events.append(`order-${orderId}`, [{ id, type, data: { order_id: orderId }, metadata: testMetadata(clock.now().toISOString()) }], { expectedRevision: 'any' });
    await running.worker.settle();
    return id;
  };

  beforeEach(async () => {
    shipping = new Shipping();
    errors.length = 0;
    running = new TempWorker(new TempCells(clock, processPii), { projections: [], reactions: [shipping as Reaction], clock, ids, log: { error: (message) => errors.push(message) } });
    await running.start();
  });

  afterEach(() => running.end());

  it('dispatches the command an event calls for, with an id derived from the event, and writes nothing of its own', async () => {
    const headBefore = await running.cells.cell('eu').events.headPosition();
    await record('o1', 'OrderPlaced');
    const paid = await record('o1', 'OrderPaid');
    expect(shipping.calls).toEqual([{ commandId: reactionCommandId('shipping', paid), orderId: 'o1' }]);
    expect(await running.cells.cell('eu').events.headPosition()).toBe((headBefore ?? 0n) + 2n);
  });

  it('dispatches an event read again (a crash before its checkpoint) with the same command id', async () => {
    await record('o2', 'OrderPaid');
    await running.cells.cell('eu').readModels.commit([], { name: 'reaction:shipping', position: 0n });
    await running.restart();
    await running.worker.settle();
    expect(shipping.calls.map((call) => call.orderId)).toEqual(['o2', 'o2']);
    expect(new Set(shipping.calls.map((call) => call.commandId)).size).toBe(1);
  });

  it('takes a refusal as final and goes on', async () => {
    shipping.behaviour = (attempt) => (attempt === 1 ? 'refuse' : 'ok');
    await record('o3', 'OrderPaid');
    await record('o4', 'OrderPaid');
    expect(shipping.calls.map((call) => call.orderId)).toEqual(['o3', 'o4']);
    expect(errors).toEqual([]);
  });

  it('stops at a failing command and runs it again until it succeeds, skipping nothing', async () => {
    shipping.behaviour = (attempt) => (attempt < 3 ? 'outage' : 'ok');
    await record('o5', 'OrderPaid');
    await record('o6', 'OrderPaid');
    expect(shipping.calls.map((call) => call.orderId)).toEqual(['o5', 'o5', 'o5', 'o6']);
    expect(errors).toHaveLength(2);
  });

  it('parks a refused command of a type it parks, where parked commands are listed, and dispatches it again from its event, under its id, when retried', async () => {
    shipping.parkWhenRefused = ['Ship'];
    shipping.behaviour = (attempt) => (attempt === 1 ? 'refuse' : 'ok');
    const commandId = reactionCommandId('shipping', await record('o7', 'OrderPaid'));
    const cell = running.cells.cell('eu');
    const parked = await cell.events.readStream(processStream('shipping', 'o7'));
    expect(parked.map((event) => [event.type, (event.data as { command_id: string }).command_id])).toEqual([[PARKED_EVENT, commandId]]);
    const listed = await cell.readModels.find<ParkedCommandDoc>(PARKED_COMMANDS, { limit: 10 });
    expect(listed.items.map((doc) => [doc.id, doc.process, doc.process_id, doc.type])).toEqual([[commandId, 'shipping', 'o7', 'Ship']]);

    // As an operator's retry (or the hourly retrier) records it.
    const retried = { id: ids.ulid(), type: RETRIED_EVENT, data: { command_id: commandId }, metadata: testMetadata(clock.now().toISOString()) };
    await cell.events.append(processStream('shipping', 'o7'), [retried], { expectedRevision: 'any' });
    await running.worker.settle();
    expect(shipping.calls).toEqual([
      { commandId, orderId: 'o7' },
      { commandId, orderId: 'o7' },
    ]);
    expect((await cell.readModels.find<ParkedCommandDoc>(PARKED_COMMANDS, { limit: 10 })).items).toEqual([]);
  });
});

/** Shipping with a page form: each page it is sent is recorded, and each command in it settled as `dispatch` would. */
class PagedShipping extends Shipping {
  readonly pages: string[][] = [];

  async dispatchEach(calls: readonly { command: Ship; context: RequestContext }[]): Promise<PromiseSettledResult<void>[]> {
    this.pages.push(calls.map(({ command }) => command.data.order_id));
    return Promise.allSettled(calls.map(({ command, context }) => this.dispatch(command, context)));
  }
}

describe('a reaction with a page form', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const errors: string[] = [];
  let shipping: PagedShipping;
  let running: TempWorker;

  /** The orders' payments, appended in one turn so that the reaction finds them ready together. */
  const paid = async (...orderIds: string[]) => {
    const events = running.cells.cell('eu').events;
    const appended = orderIds.map((orderId) => ({ id: ids.ulid(), type: 'OrderPaid', data: { order_id: orderId }, metadata: testMetadata(clock.now().toISOString()) }));
    await Promise.all(appended.map((event) => events.append(`order-${event.data.order_id}`, [event], { expectedRevision: 'any' })));
    await running.worker.settle();
    return appended.map((event) => reactionCommandId('shipping', event.id));
  };

  beforeEach(async () => {
    shipping = new PagedShipping();
    errors.length = 0;
    running = new TempWorker(new TempCells(clock, processPii), { projections: [], reactions: [shipping as Reaction], clock, ids, log: { error: (message) => errors.push(message) } });
    await running.start();
  });

  afterEach(() => running.end());

  it('sends the ready commands a page at a time, a lane’s next command in the next page, each with its event’s command id', async () => {
    const commandIds = await paid('a', 'b', 'a', 'c');
    expect(shipping.pages).toEqual([['a', 'b', 'c'], ['a']]);
    expect(shipping.calls).toEqual([
      { commandId: commandIds[0], orderId: 'a' },
      { commandId: commandIds[1], orderId: 'b' },
      { commandId: commandIds[3], orderId: 'c' },
      { commandId: commandIds[2], orderId: 'a' },
    ]);
  });

  it('takes a refusal in the middle of a page as that command’s, and applies the others', async () => {
    shipping.behaviour = (attempt) => (attempt === 2 ? 'refuse' : 'ok');
    await paid('d', 'e', 'f');
    await paid('g');
    expect(shipping.calls.map((call) => call.orderId)).toEqual(['d', 'e', 'f', 'g']);
    expect(errors).toEqual([]);
  });

  it('runs the page again after any other failure, so no command is skipped', async () => {
    shipping.behaviour = (attempt) => (attempt === 2 ? 'outage' : 'ok');
    const commandIds = await paid('h', 'i', 'j');
    expect(shipping.calls.map((call) => call.orderId)).toEqual(['h', 'i', 'j', 'h', 'i', 'j']);
    expect(shipping.calls.slice(3).map((call) => call.commandId)).toEqual(commandIds);
    expect(errors).toHaveLength(1);
  });
});
