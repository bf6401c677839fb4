import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError, existsInVersion } from '@tally/kernel';
import { parseListQuery, PUBLIC_EVENT_TYPES, PUBLIC_EVENTS, ScopedReads, toPage, type ListPage, type ListSpec, type PublicEventDoc } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { Ctx } from '../auth/context.decorator';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { API_KEY_PROBLEMS, LIST_PROBLEMS } from '../openapi/problem-codes';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { EventResponse } from './event.response';
import { EVENT_TYPE_FILTER, eventTypeConditions, laterTypesLeftOut, type EventTypeFilter } from './event-type-filter';
import { EVENTS_SECTION } from '../openapi/edge-api-sections';
import { apiVersionOf } from '../versions/request-version';

const EVENT_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    type: { ops: ['eq', 'in', 'starts'] },
    aggregate_id: { ops: ['eq', 'in'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

type PublicEvent = Omit<PublicEventDoc, 'environment'>;

/** The public event log: what webhooks deliver, readable and filterable; a request sees the events of the types its API version knows. */
@Controller('v1/events')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(EVENTS_SECTION)
export class EventsController {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(EVENT_TYPE_FILTER) private readonly isEventTypeFilter: EventTypeFilter,
    @Inject(PUBLIC_EVENT_TYPES) private readonly eventTypes: readonly string[],
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List events',
    description:
      'Newest first by default; filter by type (exact, any of several, a category such as `subscription.*` as webhook endpoints take it, or a prefix such as `type[starts]=customer.`), by resource id and by creation time. ' +
      'A type that is not a public event type of the request’s API version is refused; the events of types a version does not know are not listed to it.',
  })
  @ApiListResponse(EventResponse, EVENT_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 400: ['event.unknown_type'] })
  async list(@Ctx() context: RequestContext, @Req() request: Request, @Query() params: Record<string, unknown>): Promise<ListPage<PublicEvent>> {
    const version = apiVersionOf(request);
    const cursors = this.reads.cursorsFor(context, PUBLIC_EVENTS);
    const query = parseListQuery(params, EVENT_LIST, cursors);
    const isKnown = (entry: string) => this.isEventTypeFilter(entry, version);
    // The cursor stays bound to the filters as sent; only the read matches patterns and leaves out what the version does not know.
    const asked = (query.where ?? []).flatMap((condition) => (condition.field === 'type' ? eventTypeConditions(condition, isKnown) : [condition]));
    const where = [...asked, ...laterTypesLeftOut(this.eventTypes, version)];
    const found = await this.reads.list<PublicEventDoc>(context, PUBLIC_EVENTS, { ...query, where });
    return toPage(found, query, (event) => withTenant(event, context), cursors);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Retrieve an event',
    description: 'One event as webhooks deliver it: the resource after the change and, for updates, the old values of what changed. An event of a type the request’s API version does not know is not found.',
  })
  @ApiOkResponse({ type: EventResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['event.not_found'] })
  async retrieve(@Ctx() context: RequestContext, @Req() request: Request, @Param('id') id: string): Promise<PublicEvent> {
    const found = await this.reads.retrieve<PublicEventDoc>(context, PUBLIC_EVENTS, id);
    if (!found || !existsInVersion(found.resource.type, apiVersionOf(request))) throw DomainError.notFound('event.not_found', `No event ${id}`);
    return withTenant(found.resource, context);
  }
}

/** The envelope names its tenant; the read model keeps that beside the event as scope. */
const withTenant = (event: PublicEventDoc, context: RequestContext): PublicEvent => ({ ...event, tenant_id: context.tenantId });
