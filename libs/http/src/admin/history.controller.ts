import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { CellRegistry, type PageQuery, type RequestContext } from '@tally/cells';
import { AGGREGATE_TYPES, parseLimit, publicEventId, streamName, type AggregateType, type ListPage } from '@tally/runtime';
import { Ctx } from '../auth/context.decorator';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { API_KEY_PROBLEMS, LIST_PROBLEMS } from '../openapi/problem-codes';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { secretsRedacted } from './secrets-redacted';
import type { StoredEventView } from './stored-event-view';
import { StoredEventResponse } from './stored-event.response';
import { ADMIN_SECTION } from '../openapi/edge-api-sections';

/**
 * For auditors: every stored event of one aggregate, in order, with its metadata. Personal
 * data is decrypted; after erasure it shows the redaction placeholders. Secrets and key hashes
 * always show as `[redacted]`.
 */
@Controller('v1/admin/aggregates')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(ADMIN_SECTION)
export class HistoryController {
  constructor(
    private readonly cells: CellRegistry,
    @Inject(AGGREGATE_TYPES) private readonly types: readonly AggregateType[],
  ) {}

  @Get(':id/history')
  @ApiOperation({
    summary: 'List the stored events of a resource',
    description:
      'Every event stored for one resource (a customer, plan, coupon, …), oldest first, with its metadata; personal data shows decrypted, or as redaction placeholders once erased. Webhook signing secrets and API key hashes always show as `[redacted]`.',
  })
  @ApiListResponse(StoredEventResponse)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 404: ['aggregate.not_found'] })
  async history(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Query('limit') rawLimit: unknown,
    @Query('cursor') rawCursor: unknown,
  ): Promise<ListPage<StoredEventView>> {
    const cell = this.cells.cell(context.region);
    const cursors = cell.cursors.forList(`history:${id}`);
    const limit = parseLimit(rawLimit);
    const from = rawCursor === undefined ? 0 : Number(cursors.decode(rawCursor, BY_REVISION).value);
    const type = this.types.find((t) => id.startsWith(`${t.idPrefix}_`));
    const notFound = DomainError.notFound('aggregate.not_found', `No aggregate ${id}`);
    if (!type) throw notFound;
    const stream = streamName(type.type, id);
    // One event more than the page shows tells whether there is a next page.
    const page = await cell.events.readStream(stream, { fromRevision: from, limit: limit + 1 });
    const [first] = from === 0 ? page : await cell.events.readStream(stream, { limit: 1 });
    if (!first || first.metadata.tenant_id !== context.tenantId || first.metadata.environment !== context.environment) throw notFound;
    const data = await Promise.all(
      page.slice(0, limit).map(async (event) => ({
        object: 'stored_event' as const,
        id: publicEventId(event),
        stream: event.stream,
        revision: event.revision,
        position: event.position.toString(),
        type: event.type,
        data: secretsRedacted(type, event.type, await cell.pii.decode(event.type, event.data)),
        metadata: { ...event.metadata },
      })),
    );
    const hasMore = page.length > limit;
    const next = hasMore ? cursors.encode(BY_REVISION, { value: data[data.length - 1].revision + 1, id: stream }) : null;
    return { object: 'list', data, has_more: hasMore, next_cursor: next };
  }
}

/** A history page's cursor is the revision it starts from. */
const BY_REVISION: PageQuery = { sort: { field: 'revision', direction: 'asc' } };
