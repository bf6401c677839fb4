import { defineResource, scopedIndex } from '@tally/runtime';
import { setupIntentAggregate } from './setup-intent.aggregate';

/** Setup intents through the API: their read model (by id, a customer's) and retrieve (with `as_of`); they publish no events. */
export const setupIntentResource = defineResource({
  aggregate: setupIntentAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('customer_id', 'created_at')],
});
