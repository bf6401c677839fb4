import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { parseListQuery, PUBLIC_EVENTS, ScopedReads, toPage, type ListPage, type ListSpec, type PublicEventDoc } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { Ctx } from '../auth/context.decorator';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { API_KEY_PROBLEMS, LIST_PROBLEMS } from '../openapi/problem-codes';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { EventResponse } from './event.response';
import { EVENT_TYPE_FILTER, eventTypeConditions, type EventTypeFilter } from './event-type-filter';
import { EVENTS_SECTION } from '../openapi/edge-api-sections';

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
@ApiTag(EVENTS_SECTION)
export class EventsController {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(EVENT_TYPE_FILTER) private readonly isEventTypeFilter: EventTypeFilter,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List events',
    description:
      'Newest first by default; filter by type (exact, any of several, a category such as `subscription.*` as webhook endpoints take it, or a prefix such as `type[starts]=customer.`), by resource id and by creation time. ' +
      'A type that is not a public event type is refused.',
  })
  @ApiListResponse(EventResponse, EVENT_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 400: ['event.unknown_type'] })
  async list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<PublicEvent>> {
    const cursors = this.reads.cursorsFor(context, PUBLIC_EVENTS);
    const query = parseListQuery(params, EVENT_LIST, cursors);
    // The cursor stays bound to the filters as sent; only the read matches patterns.
    const where = (query.where ?? []).flatMap((condition) => (condition.field === 'type' ? eventTypeConditions(condition, this.isEventTypeFilter) : [condition]));
    const found = await this.reads.list<PublicEventDoc>(context, PUBLIC_EVENTS, { ...query, where });
    return toPage(found, query, (event) => withTenant(event, context), cursors);
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
