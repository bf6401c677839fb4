import { Injectable } from '@nestjs/common';
import type { OneCommandState } from '@tally/kernel';
import { Commands, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import { testClockCustomersProcessDecider, type DeleteCustomersOnTestClock, type TestClockDeleted } from './domain/test-clock-customers-process.decider';
import { TestClockCustomers } from './test-clock-customers';

@Injectable()
export class TestClockCustomersProcess implements ProcessManager<OneCommandState, TestClockDeleted, DeleteCustomersOnTestClock> {
  readonly name = 'test_clock_customers';
  readonly streamPrefixes = ['test_clock-'];
  readonly decider = testClockCustomersProcessDecider;

  constructor(
    private readonly commands: Commands,
    private readonly customers: TestClockCustomers,
  ) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'TestClockDeleted') return undefined;
    const { test_clock_id } = event.data as { test_clock_id: string };
    return { processId: test_clock_id, input: { id: event.id, type: 'TestClockDeleted' as const, data: { test_clock_id } } };
  }

  /** Deletes every customer created on the clock; one deleted before is deleted again, to no effect. */
  async dispatch({ data }: DeleteCustomersOnTestClock, context: RequestContext): Promise<void> {
    for (const customerId of await this.customers.of(context, data.test_clock_id)) {
      await this.commands.send(customerAggregate, customerId, { type: 'DeleteCustomer', data: { customer_id: customerId } }, context);
    }
  }
}
