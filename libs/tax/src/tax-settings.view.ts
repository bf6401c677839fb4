import type { ResourceView } from '@tally/runtime';
import type { TaxLocation } from './domain/tax';
import type { TaxSettingsEvent } from './domain/tax-settings.events';

export interface TaxSettingsResource {
  [field: string]: unknown;
  id: string;
  object: 'tax.settings';
  /** Where the tenant sells from; null until set, and no tax is calculated until then. */
  origin: TaxLocation | null;
  status: 'active' | 'pending';
  livemode: boolean;
  updated_at: string | null;
}

/** What GET answers before the tenant set anything (Stripe's `pending` settings). */
export const pendingTaxSettings = (id: string, livemode: boolean): TaxSettingsResource => ({ id, object: 'tax.settings', origin: null, status: 'pending', livemode, updated_at: null });

export const taxSettingsView: ResourceView<TaxSettingsResource, TaxSettingsEvent> = {
  aggregateType: 'tax_settings',
  collection: 'tax_settings',

  apply(_settings, event) {
    const { settings_id, origin } = event.data;
    return { id: settings_id, object: 'tax.settings', origin: { ...origin }, status: 'active', livemode: event.metadata.environment === 'live', updated_at: event.metadata.occurred_at };
  },

  publicTypes: ['tax.settings.updated'],
  publicType: () => 'tax.settings.updated',
};
