import { COMMAND_REJECTED, ManualClock, UlidGenerator, type ProcessDecider, type ProcessInput } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import { Clocks } from '../clocks/clocks';
import { ScopedReads } from '../queries/scoped-reads';
import { ParkedCommands } from './parked-commands';
import { PARKED_COMMANDS } from './parked-commands.projection';
import { processPii } from './process-pii';
import type { ProcessManager } from './process-manager';
import { ScriptedDispatches } from './testing/scripted-dispatches';
import { TempWorker } from './testing/temp-worker';

type Order = { type: 'Deliver'; data: { order_id: string; email: string } };

/** One Deliver command per `order-<id>` stream; a refusal is remembered as an event. */
const ordersDecider: ProcessDecider<{ asked: boolean }> = {
  initialState: () => ({ asked: false }),
  evolve: (state, message) => (message.kind === 'command' ? { asked: true } : state),
  decide(input: ProcessInput, state) {
    if (input.type === COMMAND_REJECTED) return [{ kind: 'event', type: 'DeliveryRefused', data: input.data }];
    if (input.type !== 'OrderPlaced' || state.asked) return [];
    return [{ kind: 'command', command: { type: 'Deliver', data: input.data } }];
  },
};

class Orders extends ScriptedDispatches implements ProcessManager<{ asked: boolean }> {
  readonly name = 'orders';
  readonly streamPrefixes = ['order-'];
  readonly decider = ordersDecider;
  parkWhenRefused: readonly string[] = [];

  route(event: RecordedEvent) {
    return { processId: event.stream.slice('order-'.length), input: { id: event.id, type: event.type, data: event.data } };
  }
  subjectOf(message: { data: unknown }) {
    return (message.data as { order_id?: string }).order_id ?? null;
  }
  async dispatch(command: Order, context: RequestContext) {
    this.receive(command.data.order_id, context);
  }
}

describe('the command dispatcher', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  const errors: string[] = [];
  let orders: Orders;
  let running: TempWorker;

  const place = async (orderId: string) => {
    await running.cells.cell('eu').events.append(`order-${orderId}`, [{ id: ids.ulid(), type: 'OrderPlaced', data: { order_id: orderId, email: 'ada@example.com' }, metadata: testMetadata(clock.now().toISOString()) }], { expectedRevision: 'no_stream' });
    await running.worker.settle();
  };
  const processEvents = (orderId: string) => running.cells.cell('eu').events.readStream(`pm.orders-${orderId}`);

  beforeEach(async () => {
    orders = new Orders();
    errors.length = 0;
    running = new TempWorker(new TempCells(clock, processPii), { projections: [], processes: [orders as ProcessManager], clock, ids, log: { error: (message) => errors.push(message) } });
    await running.start();
  });

  afterEach(() => running.end());

  it('dispatches an issued command once, with the command id stored in the process stream', async () => {
    await place('o1');
    const issued = (await processEvents('o1')).find((event) => event.type === 'ProcessCommandIssued')!;
    expect(orders.calls).toHaveLength(1);
    expect(orders.calls[0].commandId).toMatch(/^cmd_/);
    await running.cells.cell('eu').readModels.commit([], { name: 'dispatcher', position: 0n });
    await running.restart();
    await running.worker.settle();
    expect(orders.calls.map((call) => call.commandId)).toEqual([orders.calls[0].commandId, orders.calls[0].commandId]);
    expect(issued.metadata.input_id).toBeDefined();
  });

  it('retries a failing command and then goes on', async () => {
    orders.behaviour = (attempt) => (attempt < 3 ? 'outage' : 'ok');
    await place('o2');
    expect(orders.calls).toHaveLength(3);
    expect(new Set(orders.calls.map((call) => call.commandId)).size).toBe(1);
    expect((await processEvents('o2')).map((event) => event.type)).toEqual(['ProcessInputReceived', 'ProcessCommandIssued']);
  });

  it('parks a command that fails every attempt, lists it, and goes on with later commands', async () => {
    orders.behaviour = (attempt) => (attempt <= 5 ? 'outage' : 'ok');
    await place('o3');
    await place('o4');
    expect(orders.calls.map((call) => call.orderId)).toEqual(['o3', 'o3', 'o3', 'o3', 'o3', 'o4']);
    expect((await processEvents('o3')).map((event) => event.type)).toEqual(['ProcessInputReceived', 'ProcessCommandIssued', 'ProcessCommandParked']);
    const parked = await running.cells.cell('eu').readModels.find(PARKED_COMMANDS, { where: [{ field: 'process_id', op: 'eq', value: 'o3' }], limit: 10 });
    expect(parked.items).toEqual([expect.objectContaining({ id: orders.calls[0].commandId, object: 'parked_command', process: 'orders', type: 'Deliver', attempts: 5, last_error: 'connect ECONNREFUSED' })]);
  });

  it('dispatches a parked command again when an operator retries it, and parks it again if it still fails', async () => {
    orders.behaviour = (attempt) => (attempt <= 5 || attempt >= 7 ? 'outage' : 'ok');
    await place('o7');
    await place('o8');
    const parkedIds = async () => (await running.cells.cell('eu').readModels.find(PARKED_COMMANDS, { limit: 10 })).items.map((doc) => doc.id);
    const [o7Command] = await parkedIds();
    const parked = new ParkedCommands(running.cells, new ScopedReads(running.cells), new Clocks(clock), ids);
    const operator: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'api_key:key_1', requestId: 'req_1', correlationId: null, causationId: null };

    await parked.retry(operator, o7Command);
    await running.worker.settle();
    expect(orders.calls.map((call) => call.orderId)).toEqual(['o7', 'o7', 'o7', 'o7', 'o7', 'o8', 'o7', 'o7', 'o7', 'o7', 'o7']);
    expect(new Set(orders.calls.filter((call) => call.orderId === 'o7').map((call) => call.commandId))).toEqual(new Set([o7Command]));
    expect((await processEvents('o7')).map((event) => event.type)).toEqual(['ProcessInputReceived', 'ProcessCommandIssued', 'ProcessCommandParked', 'ProcessCommandRetried', 'ProcessCommandParked']);
    expect(await parkedIds()).toEqual([o7Command]);

    orders.behaviour = () => 'ok';
    await parked.retry(operator, o7Command);
    await running.worker.settle();
    expect(orders.calls).toHaveLength(12);
    expect(await parkedIds()).toEqual([]);
    await expect(parked.retry(operator, o7Command)).rejects.toMatchObject({ code: 'parked_command.not_found' });
  });

  it('hands a refusal back to the process as a CommandRejected input', async () => {
    orders.behaviour = () => 'refuse';
    await place('o5');
    const events = await processEvents('o5');
    expect(events.map((event) => event.type)).toEqual(['ProcessInputReceived', 'ProcessCommandIssued', 'ProcessInputReceived', 'DeliveryRefused']);
    expect(events[3].data).toMatchObject({ command_type: 'Deliver', code: 'order.closed' });
    expect(orders.calls).toHaveLength(1);
  });

  it('parks at once a refused command that its process must not drop, logs it, and dispatches it again on retry once the cause is fixed', async () => {
    orders.parkWhenRefused = ['Deliver'];
    orders.behaviour = () => 'refuse';
    await place('o9');
    expect(orders.calls).toHaveLength(1);
    expect((await processEvents('o9')).map((event) => event.type)).toEqual(['ProcessInputReceived', 'ProcessCommandIssued', 'ProcessCommandParked']);
    const parkedDocs = async () => (await running.cells.cell('eu').readModels.find(PARKED_COMMANDS, { limit: 10 })).items;
    const [command] = orders.calls.map((call) => call.commandId!);
    expect(await parkedDocs()).toEqual([expect.objectContaining({ id: command, process: 'orders', type: 'Deliver', attempts: 1, last_error: 'order.closed: The order is closed' })]);
    expect(errors).toEqual([expect.stringContaining(`command Deliver ${command} refused (order.closed)`)]);

    orders.behaviour = () => 'ok';
    const operator: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'api_key:key_1', requestId: 'req_1', correlationId: null, causationId: null };
    await new ParkedCommands(running.cells, new ScopedReads(running.cells), new Clocks(clock), ids).retry(operator, command);
    await running.worker.settle();
    expect(orders.calls.map((call) => call.commandId)).toEqual([command, command]);
    expect(await parkedDocs()).toEqual([]);
  });

  it('seals the personal data a process copies with its subject’s key, so erasure redacts the copies', async () => {
    await place('o6');
    const stored = await processEvents('o6');
    expect(JSON.stringify(stored.map((event) => event.data))).not.toContain('ada@example.com');
    const cell = running.cells.cell('eu');
    await cell.dataKeys.destroy('o6');
    cell.pii.forget('o6');
    const issued = stored.find((event) => event.type === 'ProcessCommandIssued')!;
    expect(await cell.pii.decode(issued.type, issued.data)).toMatchObject({ type: 'Deliver', data: null });
  });
});
