import type { ContextManifest } from '@tally/runtime';
import { TaxModule } from './tax.module';
import { taxSettingsResource } from './tax-settings.resource';
import { TAX_SECTION } from './tax.api-sections';

/** The tax engine and each tenant's tax settings. */
export const taxContext: ContextManifest = {
  name: 'tax',
  apiSections: [TAX_SECTION],
  module: TaxModule,
  projections: [taxSettingsResource.projection],
  aggregateTypes: [{ idPrefix: 'txs', type: 'tax_settings' }],
};
