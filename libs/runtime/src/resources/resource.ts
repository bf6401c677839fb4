import type { Command, Event } from '@tally/kernel';
import type { IndexSpec } from '@tally/readstore';
import type { RequestContext } from '@tally/cells';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import type { Projection } from '../projections/projection';
import { resourceProjection } from '../public-events/resource-projection';
import type { ResourceDoc } from '../public-events/resource-view';
import type { ListSpec } from '../queries/list-query';

/**
 * One API resource, said once: the aggregate it shows (its type, its view, its not-found error),
 * the read model's indexes and what its list takes. From it come its projection (the read model
 * and its public events), its retrieve with `as_of` and its list (ResourceReads), and its list's
 * OpenAPI shape (`ApiListResponse(…, resource.list)`).
 */
export interface ResourceDefinition<S, C extends Command, E extends Event, R extends ResourceDoc> {
  /** It must have a view: the fold that the read model, the public events and `as_of` share. */
  aggregate: AggregateDefinition<S, C, E, R>;
  /** The read model's indexes, each led by `tenant_id` and `environment`. */
  indexes: readonly IndexSpec[];
  /** What its list endpoint takes (absent: the resource is not listed). */
  list?: ListSpec;
  /** The aggregate id a path names, when it may name it otherwise (a plan by its code). */
  idOf?(context: RequestContext, key: string): string;
  /**
   * The resource as it reads at a moment (now, or `as_of`), for what depends on the time of
   * reading rather than on an event (the price version in force).
   */
  at?(resource: R, moment: string): R;
  /**
   * Another aggregate the read model also follows (a payment method's `is_default` is its
   * customer's choice): an `as_of` read folds that aggregate up to the same moment too.
   */
  asOfWith?: AsOfJoin<R>;
}

export interface AsOfJoin<R extends ResourceDoc> {
  /** Whichever its state, commands and events: only its resource is read. */
  aggregate: AggregateDefinition<any, any, any, ResourceDoc>;
  /** The id of the other aggregate, if the resource names one. */
  idOf(resource: R): string | null;
  complete(resource: R, other: ResourceDoc | undefined): R;
}

/** An index of a resource's read model: its fields, led by the scope every read filters on. */
export const scopedIndex = (...fields: string[]): IndexSpec => ({ fields: ['tenant_id', 'environment', ...fields] });

export interface Resource<S, C extends Command, E extends Event, R extends ResourceDoc> extends ResourceDefinition<S, C, E, R> {
  /** The read model's collection: the view's. */
  collection: string;
  projection: Projection;
}

export function defineResource<S, C extends Command, E extends Event, R extends ResourceDoc>(definition: ResourceDefinition<S, C, E, R>): Resource<S, C, E, R> {
  const { view, type } = definition.aggregate;
  if (!view) throw new Error(`The ${type} aggregate has no view to show as a resource`);
  return { ...definition, collection: view.collection, projection: resourceProjection(view, definition.indexes) };
}
