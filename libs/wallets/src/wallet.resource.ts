import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { walletAggregate } from './wallet.aggregate';

/** Wallets through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const walletResource = defineResource({
  aggregate: walletAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('updated_at'), scopedIndex('customer_id')],
  list: {
    sortable: ['created_at', 'updated_at'],
    filters: {
      customer_id: { ops: ['eq', 'in'] },
      currency: { ops: ['eq', 'in'] },
      created_at: TIMESTAMP_FILTER,
      updated_at: TIMESTAMP_FILTER,
    },
  },
});
