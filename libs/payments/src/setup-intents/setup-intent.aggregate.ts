import type { AggregateDefinition } from '@tally/runtime';
import { setupIntentDecider, setupIntentNotFound, type SetupIntentCommand, type SetupIntentState } from '../domain/setup-intent.decider';
import type { SetupIntentEvent } from '../domain/setup-intent.events';
import { setupIntentView, type SetupIntentResource } from './setup-intent.view';

export const setupIntentAggregate: AggregateDefinition<SetupIntentState, SetupIntentCommand, SetupIntentEvent, SetupIntentResource> = {
  type: 'setup_intent',
  decider: setupIntentDecider,
  view: setupIntentView,
  notFound: setupIntentNotFound,
};
