import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { PUBLIC_EVENTS, ScopedReads, type ListPage, type ListSpec, type PublicEventDoc } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { Ctx } from '../auth/context.decorator';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { API_KEY_PROBLEMS, LIST_PROBLEMS } from '../openapi/problem-codes';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { EventResponse } from './event.response';

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
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag('events')
export class EventsController {
  constructor(private readonly reads: ScopedReads) {}

  @Get()
  @ApiOperation({ summary: 'List events', description: 'Newest first by default; filter by type (exact, any of several, or prefix such as `customer.`), by resource id and by creation time.' })
  @ApiListResponse(EventResponse, EVENT_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  async list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<PublicEvent>> {
    return this.reads.page<PublicEventDoc, PublicEvent>(context, PUBLIC_EVENTS, params, EVENT_LIST, (event) => withTenant(event, context));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve an event', description: 'One event as webhooks deliver it: the resource after the change and, for updates, the old values of what changed.' })
  @ApiOkResponse({ type: EventResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['event.not_found'] })
  async retrieve(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PublicEvent> {
    const found = await this.reads.retrieve<PublicEventDoc>(context, PUBLIC_EVENTS, id);
    if (!found) throw DomainError.notFound('event.not_found', `No event ${id}`);
    return withTenant(found.resource, context);
  }
}

/** The envelope names its tenant; the read model keeps that beside the event as scope. */
const withTenant = (event: PublicEventDoc, context: RequestContext): PublicEvent => ({ ...event, tenant_id: context.tenantId });
