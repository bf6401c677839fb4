import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandRuntime, instantParameter, ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { SUBSCRIPTION_STATUSES } from './dto/subscription.response';
import { subscriptionAggregate } from './subscription.aggregate';
import { subscriptionView, type SubscriptionResource } from './subscription.view';

export const SUBSCRIPTION_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: SUBSCRIPTION_STATUSES },
    customer_id: { ops: ['eq'] },
    plan_code: { ops: ['eq'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const SUBSCRIPTION_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'customer_id', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'status', 'created_at'] },
];

export interface SubscriptionFound {
  subscription: SubscriptionResource;
  revision: number;
}

export class GetSubscriptionQuery extends Query<SubscriptionFound> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    /** Rebuild the subscription from the log as it was at this moment. */
    readonly asOf?: Date,
  ) {
    super();
  }
}

export class ListSubscriptionsQuery extends Query<ListPage<SubscriptionResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetSubscriptionQuery)
export class GetSubscriptionHandler implements IQueryHandler<GetSubscriptionQuery, SubscriptionFound> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly runtime: CommandRuntime,
  ) {}

  async execute({ context, subscriptionId, asOf }: GetSubscriptionQuery): Promise<SubscriptionFound> {
    const found = asOf
      ? await this.runtime.load(this.runtime.cellOf(context), subscriptionAggregate, subscriptionId, context, { asOf })
      : await this.reads.retrieve<SubscriptionResource>(context, subscriptionView.collection, subscriptionId);
    if (!found?.resource) throw subscriptionAggregate.notFound(subscriptionId);
    return { subscription: found.resource, revision: found.revision };
  }
}

@QueryHandler(ListSubscriptionsQuery)
export class ListSubscriptionsHandler implements IQueryHandler<ListSubscriptionsQuery, ListPage<SubscriptionResource>> {
  constructor(private readonly reads: ScopedReads) {}

  execute({ context, params }: ListSubscriptionsQuery): Promise<ListPage<SubscriptionResource>> {
    return this.reads.page<SubscriptionResource>(context, subscriptionView.collection, params, SUBSCRIPTION_LIST);
  }
}

export const subscriptionQueryHandlers = [GetSubscriptionHandler, ListSubscriptionsHandler];

export const parseAsOf = (raw: unknown): Date | undefined => (raw === undefined ? undefined : instantParameter('as_of', raw));
