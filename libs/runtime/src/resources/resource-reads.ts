import { keyedObject, type Clock, type Command, type Event } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import type { CommandRuntime } from '../commands/command-runtime';
import type { ResourceDoc } from '../public-events/resource-view';
import { instantParameter, type ListPage } from '../queries/list-query';
import type { ScopedReads } from '../queries/scoped-reads';
import type { Resource } from './resource';

/** A retrieved resource and the revision of its stream it shows (the ETag). */
export interface Retrieved<R> {
  resource: R;
  revision: number;
}

/**
 * The retrieve and list of every resource: the read model now, or with `as_of` the aggregate's
 * events folded up to that moment (404 before it existed, as for an id that never existed).
 */
export class ResourceReads {
  constructor(
    private readonly reads: ScopedReads,
    private readonly runtime: CommandRuntime,
    private readonly clock: Clock,
  ) {}

  /** `key` as the path names it; `asOf` as the query gave it (undefined: now). */
  async retrieve<S, C extends Command, E extends Event, R extends ResourceDoc>(
    resource: Resource<S, C, E, R>,
    context: RequestContext,
    key: string,
    asOf?: unknown,
  ): Promise<Retrieved<R>> {
    const found = await this.find(resource, context, key, asOf);
    if (!found) throw resource.aggregate.notFound(key);
    return found;
  }

  /** As `retrieve`, for a resource that reads as a default while it does not exist (the tax settings): undefined then. */
  async find<S, C extends Command, E extends Event, R extends ResourceDoc>(
    resource: Resource<S, C, E, R>,
    context: RequestContext,
    key: string,
    asOf?: unknown,
  ): Promise<Retrieved<R> | undefined> {
    const at = asOf === undefined ? undefined : instantParameter('as_of', asOf);
    const id = resource.idOf?.(context, key) ?? key;
    const found = at ? await this.foldedAt(resource, context, id, at) : await this.reads.retrieve<R>(context, resource.collection, id);
    if (!found) return undefined;
    const moment = (at ?? this.clock.now()).toISOString();
    return { resource: resource.at ? resource.at(found.resource, moment) : found.resource, revision: found.revision };
  }

  /**
   * One page of the resource's list; `params` is the request's query, checked against the
   * resource's list spec. `scope`: equality filters the route sets from its path (a customer's
   * methods), in place of any the query names.
   */
  list<S, C extends Command, E extends Event, R extends ResourceDoc>(
    resource: Resource<S, C, E, R>,
    context: RequestContext,
    params: Record<string, unknown>,
    scope: Readonly<Record<string, string>> = {},
  ): Promise<ListPage<R>> {
    if (!resource.list) throw new Error(`${resource.collection} has no list`);
    const scoped = Object.keys(scope);
    const spec = { ...resource.list, filters: { ...resource.list.filters, ...Object.fromEntries(scoped.map((field) => [field, { ops: ['eq'] as const }])) } };
    const query = keyedObject<unknown>([...Object.entries(params).filter(([field]) => !scoped.includes(field)), ...Object.entries(scope)]);
    const { at } = resource;
    const now = this.clock.now().toISOString();
    return this.reads.page<R, R>(context, resource.collection, query, spec, (found) => (at ? at(found, now) : found));
  }

  private async foldedAt<S, C extends Command, E extends Event, R extends ResourceDoc>(
    resource: Resource<S, C, E, R>,
    context: RequestContext,
    id: string,
    at: Date,
  ): Promise<Retrieved<R> | undefined> {
    const cell = this.runtime.cellOf(context);
    const { resource: folded, revision } = await this.runtime.load(cell, resource.aggregate, id, context, { asOf: at });
    if (!folded) return undefined;
    const join = resource.asOfWith;
    const otherId = join?.idOf(folded);
    if (!join || !otherId) return { resource: folded, revision };
    const other = await this.runtime.load(cell, join.aggregate, otherId, context, { asOf: at });
    return { resource: join.complete(folded, other.resource), revision };
  }
}
