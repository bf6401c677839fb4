import type { Event } from '@tally/kernel';
import type { TaxLocation } from './tax';

/** Where the tenant sells from, for each environment: the origin of every tax decision. */
export type TaxOriginSet = Event<'TaxOriginSet', { settings_id: string; origin: TaxLocation }>;

export type TaxSettingsEvent = TaxOriginSet;
