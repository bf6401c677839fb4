import { DomainError, isCountryCode, type Command, type Decider } from '@tally/kernel';
import type { TaxLocation } from './tax';
import type { TaxSettingsEvent } from './tax-settings.events';

export type TaxSettingsState = { origin: TaxLocation | null };

export type SetTaxOrigin = Command<'SetTaxOrigin', { settings_id: string; origin: TaxLocation }>;

/** An ISO 3166-2 subdivision code without its country: `BC`, not `CA-BC`. */
export const ORIGIN_REGION = /^[A-Z0-9]{1,3}$/;

export const taxSettingsDecider: Decider<TaxSettingsState, SetTaxOrigin, TaxSettingsEvent> = {
  initialState: () => ({ origin: null }),

  decide({ data }, state) {
    const { country, region } = data.origin;
    const fields = [
      ...(isCountryCode(country) ? [] : [{ field: 'origin.country', code: 'tax.invalid_origin', message: 'an ISO 3166-1 alpha-2 country such as DE' }]),
      ...(region === null || ORIGIN_REGION.test(region) ? [] : [{ field: 'origin.region', code: 'tax.invalid_origin', message: 'a subdivision code without the country, such as BC, or null' }]),
    ];
    if (fields.length > 0) {
      throw DomainError.invalid('tax.invalid_origin', 'The origin is an ISO 3166-1 alpha-2 country and, where taxes differ by region, an ISO 3166-2 subdivision code without the country (BC, not CA-BC)', fields);
    }
    if (state.origin && state.origin.country === country && state.origin.region === region) return [];
    return [{ type: 'TaxOriginSet', data: { settings_id: data.settings_id, origin: { country, region } } }];
  },

  evolve: (_state, event) => ({ origin: event.data.origin }),
};
