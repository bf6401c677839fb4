import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock, CommandIntent } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { planAggregate, planIdOf } from './plan.aggregate';
import { planAt, type PlanResource } from './plan.view';
import type { PlanCommand, RecordPlanReference } from './domain/plan.decider';

/** A plan as a command left it, with the revision for its ETag. */
export interface PlanWritten {
  plan: PlanResource;
  revision: number;
}

/** A plan command as a request states it: the handler adds the plan's id and "now". */
export type PlanIntent = CommandIntent<Exclude<PlanCommand, RecordPlanReference>, 'plan_id' | 'at'>;

export class ExecutePlanCommand extends Command<PlanWritten> {
  constructor(
    readonly context: RequestContext,
    /** The plan's code or id; for CreatePlan, its code. */
    readonly codeOrId: string,
    readonly intent: PlanIntent,
    /** The revision the client last saw (`If-Match`). */
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

@CommandHandler(ExecutePlanCommand)
export class ExecutePlanHandler implements ICommandHandler<ExecutePlanCommand, PlanWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, codeOrId, intent, expectedRevision }: ExecutePlanCommand): Promise<PlanWritten> {
    const at = this.clock.now().toISOString();
    const plan_id = planIdOf(context, codeOrId);
    const command = { type: intent.type, data: { ...intent.data, plan_id, at } } as PlanCommand;
    const { resource, revision } = await this.runtime.execute(planAggregate, plan_id, command, context, { expectedRevision });
    return { plan: planAt(resource!, at), revision };
  }
}
