import { ProcessSpecification } from './testing/process-spec';
import { oneCommandProcess } from './one-command-process';
import { COMMAND_REJECTED, TIMER_FIRED, type ProcessInput } from './process';

type Shipped = ProcessInput<'OrderShipped', { order_id: string }>;
const decider = oneCommandProcess((shipped: Shipped) => ({ type: 'SendReceipt', data: shipped.data }));
const spec = ProcessSpecification.for(decider);
const shipped: Shipped = { id: 'evt_1', type: 'OrderShipped', data: { order_id: 'ord_1' } };
const receipt = { kind: 'command' as const, command: { type: 'SendReceipt', data: { order_id: 'ord_1' } } };

describe('a process of one command', () => {
  it('answers its trigger with its command', () => {
    spec.given([]).when(shipped).then([receipt]);
  });

  it('issues it once, however often the trigger arrives', () => {
    spec.given([shipped]).when({ ...shipped, id: 'evt_2' }).thenNothingHappens();
  });

  it('ends when the command is refused', () => {
    spec.given([shipped]).when({ id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'SendReceipt', code: 'order.not_found', message: 'No order' } }).thenNothingHappens();
  });

  it('ignores a timer, as it sets none', () => {
    spec.given([]).when({ id: 'timer:t', type: TIMER_FIRED, data: { timer_id: 't' } }).thenNothingHappens();
  });

  it('folds its stream, a trigger then its command, to issued', () => {
    const stored = [{ kind: 'input' as const, input: shipped }, receipt];
    expect(stored.reduce(decider.evolve, decider.initialState())).toEqual({ status: 'issued' });
  });
});
