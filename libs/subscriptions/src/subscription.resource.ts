import { defineResource, type ListSpec, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { SUBSCRIPTION_STATUSES } from './dto/subscription.response';
import { subscriptionAggregate } from './subscription.aggregate';

export const SUBSCRIPTION_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: SUBSCRIPTION_STATUSES },
    customer_id: { ops: ['eq'] },
    plan_code: { ops: ['eq'] },
    created_at: TIMESTAMP_FILTER,
  },
};

/** Subscriptions through the API: their read model and public events, retrieve (with `as_of`) and list. */
export const subscriptionResource = defineResource({
  aggregate: subscriptionAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('customer_id', 'created_at'), scopedIndex('status', 'created_at')],
  list: SUBSCRIPTION_LIST,
});
