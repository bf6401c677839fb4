import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { customersOnTestClock } from './domain/test-clock-customers.decider';
import { testClockCustomersAggregate } from './test-clock-customers.aggregate';

/** The customers created on a test clock, read from the clock's customer index in the event store. */
@Injectable()
export class TestClockCustomers {
  constructor(private readonly runtime: CommandRuntime) {}

  async of(context: RequestContext, testClockId: string): Promise<readonly string[]> {
    return customersOnTestClock((await this.runtime.load(this.runtime.cellOf(context), testClockCustomersAggregate, testClockId, context)).state);
  }
}
