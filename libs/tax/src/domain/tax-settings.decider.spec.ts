import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { taxSettingsDecider } from './tax-settings.decider';
import type { TaxSettingsEvent } from './tax-settings.events';

const spec = DeciderSpecification.for(taxSettingsDecider);
const setOrigin = (country: string, region: string | null = null) => ({ type: 'SetTaxOrigin' as const, data: { settings_id: 'txs_1', origin: { country, region } } });
const originSet = (country: string, region: string | null = null): TaxSettingsEvent => ({ type: 'TaxOriginSet', data: { settings_id: 'txs_1', origin: { country, region } } });

describe('tax settings decider', () => {
  it('sets the origin, and changes it later', () => {
    spec.given([]).when(setOrigin('DE')).then([originSet('DE')]);
    spec.given([originSet('DE')]).when(setOrigin('CA', 'BC')).then([originSet('CA', 'BC')]);
  });

  it('does nothing when the origin is already set so', () => {
    spec.given([originSet('CA', 'BC')]).when(setOrigin('CA', 'BC')).thenNothingHappens();
  });

  it.each([['de'], ['DEU'], [''], ['XX'], ['EL']])('refuses the country %j', (country) => {
    spec.given([]).when(setOrigin(country)).thenFails('tax.invalid_origin');
  });

  it('names each field that is wrong', () => {
    expect(() => taxSettingsDecider.decide(setOrigin('XX', 'CA-BC'), taxSettingsDecider.initialState())).toThrow(
      expect.objectContaining({ fields: [expect.objectContaining({ field: 'origin.country' }), expect.objectContaining({ field: 'origin.region' })] }),
    );
  });

  it('refuses a region written with its country', () => {
    spec.given([]).when(setOrigin('CA', 'CA-BC')).thenFails('tax.invalid_origin');
  });
});
