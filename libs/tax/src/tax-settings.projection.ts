import { resourceProjection } from '@tally/runtime';
import { taxSettingsView } from './tax-settings.view';

/** The tax settings read model (read by id only) and their entries in the public event log. */
export const taxSettingsProjection = resourceProjection(taxSettingsView, []);
