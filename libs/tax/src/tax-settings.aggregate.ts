import { derivedId, DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { taxSettingsDecider, type SetTaxOrigin, type TaxSettingsState } from './domain/tax-settings.decider';
import type { TaxSettingsEvent } from './domain/tax-settings.events';
import { taxSettingsView, type TaxSettingsResource } from './tax-settings.view';

export const taxSettingsAggregate: AggregateDefinition<TaxSettingsState, SetTaxOrigin, TaxSettingsEvent, TaxSettingsResource> = {
  type: 'tax_settings',
  decider: taxSettingsDecider,
  view: taxSettingsView,
  notFound: (id) => DomainError.notFound('tax.settings_not_found', `No tax settings ${id}`),
};

/** One tax settings per tenant and environment. */
export const taxSettingsIdOf = (context: RequestContext): string => derivedId('txs', [context.tenantId, context.environment]);
