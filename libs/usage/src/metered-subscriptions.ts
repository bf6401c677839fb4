import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime } from '@tally/runtime';
import { loadPlan, subscriptionAggregate, TERMINAL, usageMeters } from '@tally/subscriptions';
import type { MeteredSubscription } from './domain/usage-batch.decide';

/** What taking usage for a subscription depends on: whether it exists for the tenant and still bills, its plan's usage meters, its clock's now. */
@Injectable()
export class MeteredSubscriptions {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
  ) {}

  async of(context: RequestContext, id: string): Promise<MeteredSubscription> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, subscriptionAggregate, id, context).catch((error: unknown) => {
      if (error instanceof DomainError && error.kind === 'not_found') return undefined;
      throw error;
    });
    if (!loaded || loaded.state.status === 'none') return { exists: false };
    const { state, clockId } = loaded;
    const ended = TERMINAL.includes(state.status);
    const plan = ended ? undefined : await loadPlan(this.runtime, context, state.planCode);
    const components = plan ? usageMeters(plan, state.period.start) : [];
    const meters = new Set(components.map(({ meter }) => meter));
    const rebillMeters = new Set(components.filter(({ late_events }) => late_events === 'rebill').map(({ meter }) => meter));
    return { exists: true, ended, meters, rebillMeters, now: await this.clocks.now(cell, clockId), ...(clockId && { clockId }) };
  }
}
