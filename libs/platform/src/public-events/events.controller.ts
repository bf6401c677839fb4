import { Controller, Get, Param, Query } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import { Ctx } from '../http/context.decorator';
import { parseListQuery, toPage, type ListPage, type ListSpec } from '../http/list-query';
import { ScopedReads } from '../queries/scoped-reads';
import type { RequestContext } from '../context/request-context';
import { PUBLIC_EVENTS, type PublicEventDoc } from './public-event';

const EVENT_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    type: { ops: ['eq', 'in', 'starts'] },
    aggregate_id: { ops: ['eq', 'in'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

type PublicEvent = Omit<PublicEventDoc, 'environment'>;

/** The public event log: what webhooks deliver, readable and filterable. */
@Controller('v1/events')
export class EventsController {
  constructor(private readonly reads: ScopedReads) {}

  @Get()
  async list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<PublicEvent>> {
    const query = parseListQuery(params, EVENT_LIST);
    return toPage(await this.reads.list<PublicEventDoc>(context, PUBLIC_EVENTS, query), query, (event) => withTenant(event, context));
  }

  @Get(':id')
  async retrieve(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PublicEvent> {
    const found = await this.reads.retrieve<PublicEventDoc>(context, PUBLIC_EVENTS, id);
    if (!found) throw DomainError.notFound('event.not_found', `No event ${id}`);
    return withTenant(found.resource, context);
  }
}

/** The envelope names its tenant; the read model keeps that beside the event as scope. */
const withTenant = (event: PublicEventDoc, context: RequestContext): PublicEvent => ({ ...event, tenant_id: context.tenantId });
