import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { usageAlertNotFound } from '../domain/usage-alert.decider';
import { USAGE_ALERT_STATUSES, usageAlertView, type UsageAlertResource } from './usage-alert.view';

export const USAGE_ALERT_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    subscription_id: { ops: ['eq'] },
    status: { ops: ['eq'], values: USAGE_ALERT_STATUSES },
  },
};

export class GetUsageAlertQuery extends Query<UsageAlertResource> {
  constructor(
    readonly context: RequestContext,
    readonly usageAlertId: string,
  ) {
    super();
  }
}

export class ListUsageAlertsQuery extends Query<ListPage<UsageAlertResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetUsageAlertQuery)
export class GetUsageAlertHandler implements IQueryHandler<GetUsageAlertQuery, UsageAlertResource> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, usageAlertId }: GetUsageAlertQuery): Promise<UsageAlertResource> {
    const found = await this.reads.retrieve<UsageAlertResource>(context, usageAlertView.collection, usageAlertId);
    if (!found) throw usageAlertNotFound(usageAlertId);
    return found.resource;
  }
}

@QueryHandler(ListUsageAlertsQuery)
export class ListUsageAlertsHandler implements IQueryHandler<ListUsageAlertsQuery, ListPage<UsageAlertResource>> {
  constructor(private readonly reads: ScopedReads) {}

  execute({ context, params }: ListUsageAlertsQuery): Promise<ListPage<UsageAlertResource>> {
    return this.reads.page<UsageAlertResource>(context, usageAlertView.collection, params, USAGE_ALERT_LIST);
  }
}
