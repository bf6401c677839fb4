import { derivedId, DomainError } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';
import type { After } from '@tally/readstore';
import type { CommandRuntime } from '../commands/command-runtime';
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

  /**
   * The timers of one aggregate in due order; those of different aggregates at the same time, a
   * page of commands at once (see CommandRuntime.executeEach). A failure other than a refusal fails
   * the delivery once the page is done, and spends nothing.
   */
  async deliver(_clock: string, due: readonly AggregateTimerDoc[]): Promise<void> {
    const spent: AggregateTimerDoc[] = [];
    let failure: { reason: unknown } | undefined;
    for (const [type, timers] of byAggregateType(due)) {
      const outcomes = await this.commands.executeEach(
        this.byType.get(type)!,
        timers.map((timer) => ({ id: timer.aggregate_id, command: timer.command, context: this.contextOf(timer) })),
      );
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') {
          if (outcome.value.appended.length === 0) spent.push(timers[i]);
        } else if (outcome.reason instanceof DomainError) {
          // Refused (the aggregate is gone): spent too.
          this.log.error(`timer ${timers[i].id}: its command was refused`, outcome.reason);
          spent.push(timers[i]);
        } else failure ??= outcome;
      });
    }
    if (failure) throw failure.reason;
    if (spent.length > 0) await this.cell.readModels.commit([{ op: 'add_keys', collection: SPENT_AGGREGATE_TIMERS, keys: spent.map(spentKey) }]);
  }

  /** The timer's command comes from the timer, under an id derived from it, and is the cause of what it appends. */
  private contextOf(timer: AggregateTimerDoc): RequestContext {
    return {
      tenantId: timer.tenant_id,
      environment: timer.environment as RequestContext['environment'],
      region: this.cell.region,
      actor: 'system:timer',
      requestId: null,
      correlationId: null,
      causationId: timerCause(timer.name),
      commandId: timerCommandId(`${timer.aggregate}-${timer.aggregate_id}`, timer.name),
    };
  }
}

function byAggregateType(timers: readonly AggregateTimerDoc[]): Map<string, AggregateTimerDoc[]> {
  const byType = new Map<string, AggregateTimerDoc[]>();
  for (const timer of timers) {
    const ofType = byType.get(timer.aggregate);
    if (ofType) ofType.push(timer);
    else byType.set(timer.aggregate, [timer]);
  }
  return byType;
}

/** A timer is spent at the due time it had: set again for another time, it is due again. */
const spentKey = (timer: AggregateTimerDoc): string => `${timer.id}@${timer.due_at}`;
