import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Clock } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import { PLAN_STATUSES } from './dto/plan.dto';
import { planAggregate, planIdOf } from './plan.aggregate';
import { planAt, planView, type PlanResource } from './plan.view';

export const PLAN_LIST: ListSpec = {
  sortable: ['created_at', 'updated_at', 'code'],
  filters: {
    code: { ops: ['eq', 'in', 'starts'] },
    product_code: { ops: ['eq', 'in'] },
    status: { ops: ['eq', 'in'], values: PLAN_STATUSES },
    currency: { ops: ['eq', 'in'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
    updated_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const PLAN_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'updated_at'] },
  { fields: ['tenant_id', 'environment', 'code'] },
  { fields: ['tenant_id', 'environment', 'status', 'created_at'] },
];

export class GetPlanQuery extends Query<{ plan: PlanResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly codeOrId: string,
  ) {
    super();
  }
}

export class ListPlansQuery extends Query<ListPage<PlanResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetPlanQuery)
export class GetPlanHandler implements IQueryHandler<GetPlanQuery, { plan: PlanResource; revision: number }> {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, codeOrId }: GetPlanQuery): Promise<{ plan: PlanResource; revision: number }> {
    const found = await this.reads.retrieve<PlanResource>(context, planView.collection, planIdOf(context, codeOrId));
    if (!found) throw planAggregate.notFound(codeOrId);
    return { plan: planAt(found.resource, this.clock.now().toISOString()), revision: found.revision };
  }
}

@QueryHandler(ListPlansQuery)
export class ListPlansHandler implements IQueryHandler<ListPlansQuery, ListPage<PlanResource>> {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, params }: ListPlansQuery): Promise<ListPage<PlanResource>> {
    const now = this.clock.now().toISOString();
    return this.reads.page<PlanResource>(context, planView.collection, params, PLAN_LIST, (plan) => planAt(plan, now));
  }
}

export const planQueryHandlers = [GetPlanHandler, ListPlansHandler];
