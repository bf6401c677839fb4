import { Injectable } from '@nestjs/common';
import type { CommandRejected, ProcessDecider, ProcessInput, TimerFired } from '@tally/kernel';
import { Commands, ScopedReads, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import { customerView, type CustomerResource } from './customer.view';

type TestClockDeleted = ProcessInput<'TestClockDeleted', { test_clock_id: string }>;
type DeleteCustomersOnTestClock = { type: 'DeleteCustomersOnTestClock'; data: { test_clock_id: string } };

/** Deleting a test clock deletes the customers on it, as Stripe does: one command per deleted clock. */
export const testClockCustomersDecider: ProcessDecider<{ issued: boolean }, TestClockDeleted | TimerFired | CommandRejected, { kind: 'command'; command: DeleteCustomersOnTestClock }> = {
  initialState: () => ({ issued: false }),
  evolve: (state, message) => (message.kind === 'command' ? { issued: true } : state),
  decide: (input, state) => (input.type === 'TestClockDeleted' && !state.issued ? [{ kind: 'command', command: { type: 'DeleteCustomersOnTestClock', data: input.data } }] : []),
};

const PAGE = 100;

@Injectable()
export class TestClockCustomersProcess implements ProcessManager<{ issued: boolean }, TestClockDeleted, DeleteCustomersOnTestClock> {
  readonly name = 'test_clock_customers';
  readonly streamPrefixes = ['test_clock-'];
  readonly decider = testClockCustomersDecider;

  constructor(
    private readonly commands: Commands,
    private readonly reads: ScopedReads,
  ) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'TestClockDeleted') return undefined;
    const { test_clock_id } = event.data as { test_clock_id: string };
    return { processId: test_clock_id, input: { id: event.id, type: 'TestClockDeleted' as const, data: { test_clock_id } } };
  }

  /** Deletes every customer the read model shows on the clock; a deleted customer leaves the read model, so each page starts over. */
  async dispatch({ data }: DeleteCustomersOnTestClock, context: RequestContext): Promise<void> {
    for (;;) {
      const { items } = await this.reads.list<CustomerResource>(context, customerView.collection, { where: [{ field: 'test_clock', op: 'eq', value: data.test_clock_id }], limit: PAGE });
      for (const customer of items) await this.commands.send(customerAggregate, customer.id, { type: 'DeleteCustomer', data: { customer_id: customer.id } }, context);
      if (items.length < PAGE) return;
    }
  }
}
