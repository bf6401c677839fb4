import type { Provider } from '@nestjs/common';
import { PUBLIC_EVENT_TYPES } from '@tally/runtime';
import { eventCatalogue } from './domain/event-types';

/** The catalogue of public event types (EventCatalogue), from every context's declarations as the app composed them. */
export const EVENT_CATALOGUE = Symbol('EventCatalogue');

export const eventCatalogueProvider: Provider = { provide: EVENT_CATALOGUE, useFactory: (types: readonly string[]) => eventCatalogue(types), inject: [PUBLIC_EVENT_TYPES] };
