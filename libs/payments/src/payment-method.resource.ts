import { customerAggregate, type CustomerResource } from '@tally/customers';
import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { PAYMENT_METHOD_TYPES } from './dto/payment-method.dto';
import { paymentMethodAggregate } from './payment-method.aggregate';

/**
 * Payment methods through the API: retrieve (with `as_of`) and a customer's list. `is_default` is
 * the customer's choice, so the read model follows the customer's events too (see
 * paymentMethodProjection), and an `as_of` read asks the customer as it was then.
 */
export const paymentMethodResource = defineResource({
  aggregate: paymentMethodAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('customer_id', 'created_at')],
  list: {
    sortable: ['created_at'],
    filters: {
      type: { ops: ['eq', 'in'], values: PAYMENT_METHOD_TYPES },
      created_at: TIMESTAMP_FILTER,
    },
  },
  asOfWith: {
    aggregate: customerAggregate,
    idOf: (method) => method.customer_id,
    complete: (method, customer) => ({ ...method, is_default: (customer as CustomerResource | undefined)?.default_payment_method_id === method.id }),
  },
});
