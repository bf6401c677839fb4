import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { REFUND_STATUSES } from './dto/refund.response';
import { refundAggregate } from './refund.aggregate';

/** Refunds through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const refundResource = defineResource({
  aggregate: refundAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('status', 'created_at'), scopedIndex('payment_id', 'created_at'), scopedIndex('invoice_id', 'created_at')],
  list: {
    sortable: ['created_at'],
    filters: {
      status: { ops: ['eq', 'in'], values: REFUND_STATUSES },
      payment_id: { ops: ['eq'] },
      invoice_id: { ops: ['eq'] },
      created_at: TIMESTAMP_FILTER,
    },
  },
});
