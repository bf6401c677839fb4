import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { customerAggregate } from './customer.aggregate';

/** Customers through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const customerResource = defineResource({
  aggregate: customerAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('updated_at'), scopedIndex('email')],
  list: {
    sortable: ['created_at', 'updated_at', 'email'],
    filters: {
      email: { ops: ['eq', 'in', 'starts'] },
      created_at: TIMESTAMP_FILTER,
      updated_at: TIMESTAMP_FILTER,
    },
  },
});
