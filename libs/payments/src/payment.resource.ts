import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { PAYMENT_STATUSES } from './dto/payment.response';
import { paymentAggregate } from './payment.aggregate';

/** Payments through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const paymentResource = defineResource({
  aggregate: paymentAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('status', 'created_at'), scopedIndex('invoice_id', 'created_at'), scopedIndex('customer_id', 'created_at')],
  list: {
    sortable: ['created_at'],
    filters: {
      status: { ops: ['eq', 'in'], values: PAYMENT_STATUSES },
      invoice_id: { ops: ['eq'] },
      customer_id: { ops: ['eq'] },
      created_at: TIMESTAMP_FILTER,
    },
  },
});
