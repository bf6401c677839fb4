import type { Type } from '@nestjs/common';
import type { Upcaster } from '@tally/kernel';
import type { PiiFieldSpec } from '@tally/cells';
import type { AggregateType } from './aggregate-types';
import type { ProcessManager } from '../processes/process-manager';
import type { Reaction } from '../processes/reaction';
import { processPii } from '../processes/process-pii';
import { TEST_CLOCK_ID_PREFIX } from '../clocks/test-clocks';
import { aggregateTimersProjection, type TimedAggregate } from '../processes/aggregate-timers.projection';
import type { Projection } from '../projections/projection';
import type { PublicEventSource } from '../public-events/resource-view';
import type { CellService } from '../runners/cell-service';

/** A section of the API reference: the routes filed under `name`, shown in ascending `order` of the sections. */
export interface ApiSection {
  name: string;
  description: string;
  order: number;
}

/**
 * Everything the apps need of one bounded context, exported by the context as one value: adding
 * a context to Tally is one line in each app's list of contexts.
 */
export interface ContextManifest {
  name: string;
  /** The sections of the API reference its controllers file their routes under (`ApiTag(section)`). */
  apiSections: readonly ApiSection[];
  /** Public event types it publishes beyond those of its projections' views (`publicTypes`). */
  publicEventTypes?: readonly string[];
  /** Controllers, command and query handlers, and the process managers as providers. */
  module: Type;
  projections?: readonly Projection[];
  /** Projections that follow every context's public events (the webhook outbox), made once the contexts are composed. */
  projectionsOfPublicEvents?: (sources: readonly PublicEventSource[]) => readonly Projection[];
  /** Provided (and exported) by `module`; the worker runs one of each per cell, under a lease. */
  services?: readonly Type<CellService>[];
  /** Provided (and exported) by `module`; the worker runs them. */
  processes?: readonly Type<ProcessManager>[];
  /** Provided (and exported) by `module`, as the process managers; the worker runs them. */
  reactions?: readonly Type<Reaction>[];
  /** Aggregates that set timers (an AggregateDefinition with `timers`); the worker fires them. */
  timedAggregates?: readonly TimedAggregate[];
  /** The personal-data fields of the context's events. */
  pii?: readonly PiiFieldSpec[];
  upcasters?: readonly Upcaster[];
  /** Id prefixes of the context's aggregates, for the history endpoint. */
  aggregateTypes?: readonly AggregateType[];
}

/** The contexts' parts, each in one list, plus what the runtime itself contributes. */
export interface ComposedContexts {
  modules: readonly Type[];
  projections: readonly Projection[];
  processes: readonly Type<ProcessManager>[];
  reactions: readonly Type<Reaction>[];
  services: readonly Type<CellService>[];
  timedAggregates: readonly TimedAggregate[];
  pii: readonly PiiFieldSpec[];
  upcasters: readonly Upcaster[];
  aggregateTypes: readonly AggregateType[];
  /** Every context's sections of the API reference, in their order. */
  apiSections: readonly ApiSection[];
  /** The catalogue of public event types: what webhook endpoints and the event log's filter take. */
  publicEventTypes: readonly string[];
}

/** The public event types a context declares: its projections' views' types, then its extras. */
export function publicEventTypesOf(context: ContextManifest): readonly string[] {
  const viewTypes = (context.projections ?? []).flatMap((projection) => projection.publishes?.publicTypes ?? []);
  return [...new Set([...viewTypes, ...(context.publicEventTypes ?? [])])];
}

export function composeContexts(contexts: readonly ContextManifest[]): ComposedContexts {
  const projections = contexts.flatMap((context) => context.projections ?? []);
  const sources = projections.flatMap((projection) => (projection.publishes ? [projection.publishes] : []));
  const timedAggregates = contexts.flatMap((context) => context.timedAggregates ?? []);
  return {
    modules: contexts.map((context) => context.module),
    projections: [...projections, ...contexts.flatMap((context) => context.projectionsOfPublicEvents?.(sources) ?? []), ...(timedAggregates.length > 0 ? [aggregateTimersProjection(timedAggregates)] : [])],
    processes: contexts.flatMap((context) => context.processes ?? []),
    reactions: contexts.flatMap((context) => context.reactions ?? []),
    services: contexts.flatMap((context) => context.services ?? []),
    timedAggregates,
    pii: [...processPii, ...contexts.flatMap((context) => context.pii ?? [])],
    upcasters: contexts.flatMap((context) => context.upcasters ?? []),
    aggregateTypes: [...contexts.flatMap((context) => context.aggregateTypes ?? []), { idPrefix: TEST_CLOCK_ID_PREFIX, type: 'test_clock' }],
    apiSections: contexts.flatMap((context) => context.apiSections).sort((a, b) => a.order - b.order),
    publicEventTypes: contexts.flatMap(publicEventTypesOf),
  };
}
