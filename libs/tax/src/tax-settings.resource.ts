import { defineResource } from '@tally/runtime';
import { taxSettingsAggregate } from './tax-settings.aggregate';

/** The tax settings through the API: their read model (read by id only) and public events, and their retrieve (with `as_of`). */
export const taxSettingsResource = defineResource({ aggregate: taxSettingsAggregate, indexes: [] });
