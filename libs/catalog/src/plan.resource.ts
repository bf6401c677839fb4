import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { PLAN_STATUSES } from './dto/plan.dto';
import { planAggregate, planIdOf } from './plan.aggregate';
import { planAt } from './plan.view';

/** Plans through the API, by id or code: their read model and public events, retrieve (with `as_of`) and list, each with the price versions in force when read. */
export const planResource = defineResource({
  aggregate: planAggregate,
  idOf: planIdOf,
  at: planAt,
  indexes: [scopedIndex('created_at'), scopedIndex('updated_at'), scopedIndex('code'), scopedIndex('status', 'created_at')],
  list: {
    sortable: ['created_at', 'updated_at', 'code'],
    filters: {
      code: { ops: ['eq', 'in', 'starts'] },
      product_code: { ops: ['eq', 'in'] },
      status: { ops: ['eq', 'in'], values: PLAN_STATUSES },
      currency: { ops: ['eq', 'in'] },
      created_at: TIMESTAMP_FILTER,
      updated_at: TIMESTAMP_FILTER,
    },
  },
});
