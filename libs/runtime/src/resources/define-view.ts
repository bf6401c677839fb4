import { keyedObject, sameMetadata } from '@tally/kernel';
import type { AnyEvent, HistoryEvent } from '../commands/history-event';
import { publicTypesOf, type ResourceView } from '../public-events/resource-view';

/** What every resource carries and no view writes itself: the view stamps it. */
export interface ResourceStamps {
  id: string;
  object: string;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** A resource as its view stamps it; the index signature makes it a read-store document. */
export interface StampedResource extends ResourceStamps {
  [field: string]: unknown;
}

/** A resource's own fields: those it declares (not the read-store document's index signature), without the stamps. */
export type OwnFields<R> = { [K in keyof R as string extends K ? never : number extends K ? never : K extends keyof ResourceStamps ? never : K]: R[K] };

/** One event of the union `E`, as stored. */
export type StoredEvent<E extends AnyEvent, T extends E['type']> = Extract<E, { type: T }> & HistoryEvent;

/**
 * What one event does to the resource: the fields it changes (`updated_at` follows), `deleted`
 * (the resource leaves the read model; its public event shows it as it was), or `unchanged`
 * (not even `updated_at` moves: an event only its aggregate or a process cares about).
 */
export type ResourceChange<R, Ev extends AnyEvent> = ((resource: R, data: Ev['data'], event: Ev & HistoryEvent) => Partial<OwnFields<R>>) | 'deleted' | 'unchanged';

/** The public event type an event is published as (undefined: internal), or published as only when its data says so. */
export type PublicTypeOf<Ev extends AnyEvent> = string | undefined | { type: string; when(event: Ev & HistoryEvent): boolean };

export interface ViewDefinition<R extends StampedResource, E extends AnyEvent, C extends E['type']> {
  /** The resource's `object`: also its aggregate's type and, plural, its read model's collection, unless those are said. */
  object: R['object'];
  aggregateType?: string;
  collection?: string;
  /** The event that brings the resource into being, and the resource's own fields it gives. */
  created: { type: C; fields(data: StoredEvent<E, C>['data'], event: StoredEvent<E, C>): OwnFields<R> };
  /** Every other event of the aggregate, and what it does to the resource. */
  changes: { [T in Exclude<E['type'], C>]: ResourceChange<R, Extract<E, { type: T }>> };
  publicTypes: { [T in E['type']]: PublicTypeOf<Extract<E, { type: T }>> };
  /** Fields that follow from the others, made again after the creation and every change (a coupon's `valid`). */
  derive?(resource: R, at: string): R;
}

/**
 * A resource's view, declared: its creation, each event's change and its public event types.
 * The id (the stream's aggregate id), `object`, `livemode`, `created_at` and `updated_at` are
 * stamped here once, and user metadata is kept in a prototype-less object, never a plain one.
 */
export function defineView<R extends StampedResource, E extends AnyEvent, C extends E['type']>(definition: ViewDefinition<R, E, C>): ResourceView<R, E> {
  const { object, aggregateType = object, collection = `${object}s`, created, changes, publicTypes, derive } = definition;
  const finish = (resource: R, at: string): R => (derive ? derive(resource, at) : resource);
  const changeOf = (type: E['type']): ResourceChange<R, E> | undefined =>
    type === created.type ? undefined : (changes as Record<string, ResourceChange<R, E>>)[type];

  const publicTypeOf = publicTypes as Record<string, PublicTypeOf<E>>;
  return {
    aggregateType,
    collection,
    publicTypes: publicTypesOf(Object.fromEntries(Object.entries(publicTypeOf).map(([event, type]) => [event, typeof type === 'object' ? type.type : type]))),

    apply(resource, event) {
      const at = event.metadata.occurred_at;
      const change = changeOf(event.type);
      if (!change) {
        const creation = event as StoredEvent<E, C>;
        const id = event.stream.slice(aggregateType.length + 1);
        const fields = created.fields(creation.data, creation);
        const metadata = keyedMetadata(metadataIn(fields));
        return finish({ id, object, ...fields, ...metadata, livemode: event.metadata.environment === 'live', created_at: at, updated_at: at } as R, at);
      }
      if (!resource || change === 'deleted') return undefined;
      if (change === 'unchanged') return resource;
      const changed = change(resource, event.data, event);
      return finish({ ...resource, ...changed, ...keyedMetadata(metadataIn(changed), resource.metadata), updated_at: at }, at);
    },

    publicType(event) {
      const type = publicTypeOf[event.type];
      return typeof type === 'object' ? (type.when(event) ? type.type : undefined) : type;
    },
  };
}

/**
 * The `metadata` field for user metadata given (none: no field), in an object without a prototype;
 * the one the resource had when the entries are the same, so that an update of other fields does
 * not show metadata among what it changed.
 */
function keyedMetadata(given: unknown, before?: unknown): { metadata?: Record<string, string> } {
  if (!isMetadata(given)) return {};
  if (isMetadata(before) && sameMetadata(before, given)) return { metadata: before };
  return { metadata: keyedObject(Object.entries(given)) };
}

const metadataIn = (fields: object): unknown => ('metadata' in fields ? fields.metadata : undefined);

const isMetadata = (value: unknown): value is Record<string, string> => typeof value === 'object' && value !== null && !Array.isArray(value);
