import { defineResource, type ListSpec, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { INVOICE_STATUSES } from './dto/invoice.response';
import { invoiceAggregate } from './invoice.aggregate';

export const INVOICE_LIST: ListSpec = {
  sortable: ['created_at', 'updated_at', 'due_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: INVOICE_STATUSES },
    customer_id: { ops: ['eq', 'in'] },
    subscription_id: { ops: ['eq', 'in'] },
    number: { ops: ['eq', 'starts'] },
    due_at: TIMESTAMP_FILTER,
    created_at: TIMESTAMP_FILTER,
  },
};

/** Invoices through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const invoiceResource = defineResource({
  aggregate: invoiceAggregate,
  indexes: [
    scopedIndex('created_at'),
    scopedIndex('updated_at'),
    scopedIndex('due_at'),
    scopedIndex('customer_id', 'created_at'),
    scopedIndex('subscription_id', 'created_at'),
    scopedIndex('status', 'created_at'),
    scopedIndex('number'),
  ],
  list: INVOICE_LIST,
});
