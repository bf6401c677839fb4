import type { Command, Event } from '@tally/kernel';
import type { ResourceDoc } from '../public-events/resource-view';
import type { AggregateDefinition } from './aggregate-definition';
import { asEventOf, type HistoryEvent } from './history-event';

/** An aggregate as far as its stream was folded: the state, the view of it, and their revision (-1: no event yet). */
export interface FoldedAggregate<S, R> {
  state: S;
  resource: R | undefined;
  revision: number;
}

/** Folds events into the state and the view alike, so both always describe the same revision. */
export function foldEvents<S, C extends Command, E extends Event, R extends ResourceDoc>(
  aggregate: AggregateDefinition<S, C, E, R>,
  from: FoldedAggregate<S, R>,
  events: readonly HistoryEvent[],
): FoldedAggregate<S, R> {
  return events.reduce<FoldedAggregate<S, R>>((folded, stored) => {
    const event = asEventOf<E>(stored);
    return { state: aggregate.decider.evolve(folded.state, event), resource: aggregate.view?.apply(folded.resource, event), revision: event.revision };
  }, from);
}
