import type { ContextManifest } from '@tally/runtime';
import { TaxModule } from './tax.module';
import { taxSettingsProjection } from './tax-settings.projection';

/** The tax engine and each tenant's tax settings. */
export const taxContext: ContextManifest = {
  name: 'tax',
  module: TaxModule,
  projections: [taxSettingsProjection],
  aggregateTypes: [{ idPrefix: 'txs', type: 'tax_settings' }],
};
