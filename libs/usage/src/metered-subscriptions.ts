import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime } from '@tally/runtime';
import { loadPlan, subscriptionAggregate, TERMINAL, usageMeters } from '@tally/subscriptions';
import { eventQuantityBound, type MeteredSubscription } from './domain/usage-batch.decide';

/** What taking usage for a subscription depends on: whether it exists for the tenant and still bills, its plan's usage meters and their bounds, its clock's now. */
@Injectable()
export class MeteredSubscriptions {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
  ) {}

  async of(context: RequestContext, id: string): Promise<MeteredSubscription> {
    return (await this.ofAll(context, [id])).get(id)!;
  }

  /** Each of `ids`, reading each plan and each clock they share once. */
  async ofAll(context: RequestContext, ids: Iterable<string>): Promise<Map<string, MeteredSubscription>> {
    const cell = this.runtime.cellOf(context);
    const plans = new Map<string, ReturnType<typeof loadPlan>>();
    const nows = new Map<string | undefined, Promise<Date>>();
    const metered = new Map<string, MeteredSubscription>();
    for (const id of ids) {
      const loaded = await this.runtime.load(cell, subscriptionAggregate, id, context).catch((error: unknown) => {
        if (error instanceof DomainError && error.kind === 'not_found') return undefined;
        throw error;
      });
      if (!loaded || loaded.state.status === 'none') {
        metered.set(id, { exists: false });
        continue;
      }
      const { state, clockId } = loaded;
      const ended = TERMINAL.includes(state.status);
      if (!ended && !plans.has(state.planCode)) plans.set(state.planCode, loadPlan(this.runtime, context, state.planCode));
      if (!nows.has(clockId)) nows.set(clockId, this.clocks.now(cell, clockId));
      const components = ended ? [] : usageMeters(await plans.get(state.planCode)!, state.period.start);
      const meters = new Map(components.map(({ meter, aggregation, billable_max }) => [meter, eventQuantityBound(aggregation, billable_max)]));
      const rebillMeters = new Set(components.filter(({ late_events }) => late_events === 'rebill').map(({ meter }) => meter));
      metered.set(id, { exists: true, ended, meters, rebillMeters, now: await nows.get(clockId)!, ...(clockId && { clockId }) });
    }
    return metered;
  }
}
