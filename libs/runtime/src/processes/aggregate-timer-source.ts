import { derivedId, DomainError } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';
import type { After } from '@tally/readstore';
import type { CommandRuntime } from '../commands/command-runtime';
import { inLanes } from '../runners/lanes';
import type { RunnerLog } from '../runners/supervise';
import { AGGREGATE_TIMERS, SPENT_AGGREGATE_TIMERS, timerCause, type AggregateTimerDoc, type TimedAggregate } from './aggregate-timers.projection';
import { findDue, type TimerSource } from './timer-source';

/** The command id a timer's command is sent under: a timer delivered twice (a crash, a rebuild) is applied once. */
export const timerCommandId = (stream: string, name: string): string => derivedId('tmr', [stream, name]);

/**
 * The aggregates' timers. A due timer is its command, sent to its aggregate with a command id
 * derived from the timer and the timer as the cause of what it appends (which marks it fired in
 * the read model). A command that decides nothing (the aggregate moved on) spends the timer: it
 * stays pending in the read model, which nothing of the stream ends, but is not delivered again.
 */
export class AggregateTimerSource implements TimerSource<AggregateTimerDoc> {
  private readonly byType: ReadonlyMap<string, TimedAggregate>;

  constructor(
    private readonly cell: Cell,
    aggregates: readonly TimedAggregate[],
    private readonly commands: CommandRuntime,
    private readonly log: RunnerLog,
  ) {
    this.byType = new Map(aggregates.map((aggregate) => [aggregate.type, aggregate]));
  }

  async pending(clock: string, upTo: string, limit: number, after?: After): Promise<AggregateTimerDoc[]> {
    if (this.byType.size === 0) return [];
    return findDue<AggregateTimerDoc>(this.cell.readModels, AGGREGATE_TIMERS, { field: 'aggregate', op: 'in', value: [...this.byType.keys()] }, { clock, upTo, limit, after });
  }

  async deliverable(page: readonly AggregateTimerDoc[]): Promise<AggregateTimerDoc[]> {
    if (page.length === 0) return [];
    const spent = await this.cell.readModels.hasKeys(SPENT_AGGREGATE_TIMERS, page.map(spentKey));
    return page.filter((timer) => !spent.has(spentKey(timer)));
  }

  /** The timers of one aggregate in due order; those of different aggregates at the same time. */
  async deliver(_clock: string, due: readonly AggregateTimerDoc[]): Promise<void> {
    const spent: AggregateTimerDoc[] = [];
    await inLanes(due, (timer) => `${timer.aggregate}-${timer.aggregate_id}`, async (timer) => {
      if (!(await this.applied(timer))) spent.push(timer);
    });
    if (spent.length > 0) await this.cell.readModels.commit([{ op: 'add_keys', collection: SPENT_AGGREGATE_TIMERS, keys: spent.map(spentKey) }]);
  }

  /** Whether the timer's command appended anything; a refusal (the aggregate is gone) spends the timer too. */
  private async applied(timer: AggregateTimerDoc): Promise<boolean> {
    const stream = `${timer.aggregate}-${timer.aggregate_id}`;
    const context: RequestContext = {
      tenantId: timer.tenant_id,
      environment: timer.environment as RequestContext['environment'],
      region: this.cell.region,
      actor: 'system:timer',
      requestId: null,
      correlationId: null,
      causationId: timerCause(timer.name),
      commandId: timerCommandId(stream, timer.name),
    };
    try {
      const { appended } = await this.commands.execute(this.byType.get(timer.aggregate)!, timer.aggregate_id, timer.command, context);
      return appended.length > 0;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.log.error(`timer ${timer.id}: its command was refused`, error);
      return false;
    }
  }
}

/** A timer is spent at the due time it had: set again for another time, it is due again. */
const spentKey = (timer: AggregateTimerDoc): string => `${timer.id}@${timer.due_at}`;
