import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { Commands, type Reaction } from '@tally/runtime';
import type { RecordTestClockCustomer } from './domain/test-clock-customers.decider';
import { testClockCustomersAggregate } from './test-clock-customers.aggregate';

/** Each customer created on a test clock is recorded on the clock's customer index, which deleting the clock reads. */
@Injectable()
export class TestClockCustomersIndexReaction implements Reaction<RecordTestClockCustomer> {
  readonly name = 'test_clock_customers_index';
  readonly streamPrefixes = ['customer-'];

  constructor(private readonly commands: Commands) {}

  commandOf(event: RecordedEvent) {
    const testClockId = event.metadata.clock_id;
    if (event.type !== 'CustomerCreated' || !testClockId) return undefined;
    const { customer_id } = event.data as { customer_id: string };
    return { lane: testClockId, command: { type: 'RecordTestClockCustomer' as const, data: { test_clock_id: testClockId, customer_id } } };
  }

  async dispatch(command: RecordTestClockCustomer, context: RequestContext): Promise<void> {
    await this.commands.send(testClockCustomersAggregate, command.data.test_clock_id, command, context);
  }
}
