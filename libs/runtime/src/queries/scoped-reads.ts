import type { Doc, FindQuery, FindResult } from '@tally/readstore';
import type { CellRegistry, ListPageCursors, RequestContext } from '@tally/cells';
import { unscoped, type StoredResource } from '../public-events/resource-projection';
import type { ResourceDoc } from '../public-events/resource-view';
import { parseListQuery, toPage, type ListPage, type ListSpec } from './list-query';
import type { ReadYourWrites } from './read-your-writes';

/**
 * Reads of read models on behalf of a request: only the request's tenant and environment, in
 * its region's cell. A document of another tenant is indistinguishable from a missing one. In the
 * API, a caller's read first waits for what the caller wrote (see ReadYourWrites).
 */
export class ScopedReads {
  constructor(
    private readonly cells: CellRegistry,
    private readonly writes?: ReadYourWrites,
  ) {}

  async retrieve<R extends ResourceDoc>(context: RequestContext, collection: string, id: string): Promise<{ resource: R; revision: number } | undefined> {
    await this.writes?.awaitWrites(context, collection);
    const read = () => this.cells.cell(context.region).readModels.get<StoredResource<R> & Doc>(collection, id);
    let doc = await read();
    if (await this.writes?.awaitStream(context, collection, id, doc?.stream_revision)) doc = await read();
    if (!doc || doc.tenant_id !== context.tenantId || doc.environment !== context.environment) return undefined;
    return { resource: unscoped(doc), revision: doc.stream_revision };
  }

  /** The documents of those ids that exist and are the request's, by id. */
  async many<R extends ResourceDoc>(context: RequestContext, collection: string, ids: readonly string[]): Promise<Map<string, R>> {
    await this.writes?.awaitWrites(context, collection);
    const found = await this.cells.cell(context.region).readModels.getMany<StoredResource<R> & Doc>(collection, ids);
    const mine = new Map<string, R>();
    for (const [id, doc] of found) if (doc.tenant_id === context.tenantId && doc.environment === context.environment) mine.set(id, unscoped(doc));
    return mine;
  }

  /** One page of a list endpoint: its query parameters checked against `spec`, its cursor signed by the cell; each item as `present` shows it. */
  page<R extends ResourceDoc>(context: RequestContext, collection: string, params: Record<string, unknown>, spec: ListSpec): Promise<ListPage<R>>;
  page<R extends ResourceDoc, P>(context: RequestContext, collection: string, params: Record<string, unknown>, spec: ListSpec, present: (resource: R) => P): Promise<ListPage<P>>;
  async page<R extends ResourceDoc, P>(
    context: RequestContext,
    collection: string,
    params: Record<string, unknown>,
    spec: ListSpec,
    present?: (resource: R) => P,
  ): Promise<ListPage<P | R>> {
    const cursors = this.cursorsFor(context, collection);
    const query = parseListQuery(params, spec, cursors);
    return toPage<R, P | R>(await this.list<R>(context, collection, query), query, present ?? ((resource) => resource), cursors);
  }

  /** Signs and checks the cursors of `list` (see ListCursors.forList) read for this request, in its region's cell. */
  cursorsFor(context: RequestContext, list: string): ListPageCursors {
    return this.cells.cell(context.region).cursors.forList(list);
  }

  async list<R extends ResourceDoc>(context: RequestContext, collection: string, query: FindQuery): Promise<FindResult<R>> {
    await this.writes?.awaitWrites(context, collection);
    const scoped: FindQuery = {
      ...query,
      where: [
        { field: 'tenant_id', op: 'eq', value: context.tenantId },
        { field: 'environment', op: 'eq', value: context.environment },
        ...(query.where ?? []),
      ],
    };
    const result = await this.cells.cell(context.region).readModels.find<R & Doc>(collection, scoped);
    return { items: result.items.map((doc) => unscoped(doc)), hasMore: result.hasMore };
  }
}
