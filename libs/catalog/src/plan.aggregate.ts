import { derivedId, DomainError, isIdOf } from '@tally/kernel';
import { publishedCommands, type AggregateDefinition } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { planDecider, type PlanCommand, type PlanState } from './domain/plan.decider';
import type { PlanEvent } from './domain/plan.events';
import { planView, type PlanResource } from './plan.view';

export const planAggregate: AggregateDefinition<PlanState, PlanCommand, PlanEvent, PlanResource> = {
  type: 'plan',
  decider: planDecider,
  view: planView,
  notFound: (id) => DomainError.notFound('plan.not_found', `No plan ${id}`),
};

/** The plan as subscriptions address it: recording that a subscription uses it is the command catalog publishes to them. */
export const planReferences = publishedCommands(planAggregate, ['RecordPlanReference']);

/**
 * A plan's id derives from its code within the tenant and environment, so a path takes either
 * and a second plan with the same code meets the first one's stream. Codes never start with
 * `plan_`, so the two cannot be confused.
 */
export function planIdOf(context: RequestContext, codeOrId: string): string {
  return isIdOf('plan', codeOrId) ? codeOrId : derivedId('plan', [context.tenantId, context.environment, codeOrId]);
}
