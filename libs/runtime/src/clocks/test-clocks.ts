import { DomainError, toUtcTimestamp, type IdGenerator } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import type { CommandRuntime } from '../commands/command-runtime';
import { testClockAggregate } from './test-clock.aggregate';
import type { TestClockResource } from './test-clock.view';
import type { TestClockCommand } from './domain/test-clock.decider';

/** Test clocks are a sandbox tool: live keys are refused, as Stripe refuses them. */
export function assertSandbox(context: RequestContext): void {
  if (context.environment !== 'sandbox') {
    throw DomainError.invalid('test_clock.livemode', 'Test clocks exist in the sandbox only; use a sandbox key (sk_test_…)');
  }
}

/** The commands on test clocks that requests send; the advance itself runs in the worker (TestClockAdvancer). */
/** Test clock ids are `clock_…`. */
export const TEST_CLOCK_ID_PREFIX = 'clock';

export class TestClocks {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly ids: IdGenerator,
  ) {}

  async create(context: RequestContext, input: { frozen_time: string; name: string | null }): Promise<TestClockResource> {
    assertSandbox(context);
    const id = this.ids.next(TEST_CLOCK_ID_PREFIX);
    return this.run(context, id, { type: 'CreateTestClock', data: { test_clock_id: id, name: input.name, frozen_time: toUtcTimestamp(input.frozen_time) } });
  }

  advance(context: RequestContext, id: string, frozenTime: string): Promise<TestClockResource> {
    assertSandbox(context);
    return this.run(context, id, { type: 'AdvanceTestClock', data: { test_clock_id: id, frozen_time: toUtcTimestamp(frozenTime) } });
  }

  async delete(context: RequestContext, id: string): Promise<void> {
    assertSandbox(context);
    await this.runtime.execute(testClockAggregate, id, { type: 'DeleteTestClock', data: { test_clock_id: id } }, context);
  }

  /** The test clock a new resource is to live on: it must exist in the request's tenant and sandbox. */
  async assertUsable(context: RequestContext, id: string): Promise<void> {
    assertSandbox(context);
    const { state } = await this.runtime.load(this.runtime.cellOf(context), testClockAggregate, id, context);
    if (state.status === 'none' || state.status === 'deleted') throw testClockAggregate.notFound(id);
  }

  private async run(context: RequestContext, id: string, command: TestClockCommand): Promise<TestClockResource> {
    const outcome = await this.runtime.execute(testClockAggregate, id, command, context);
    return outcome.resource!;
  }
}
