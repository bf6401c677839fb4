import { defineResource, scopedIndex, TIMESTAMP_FILTER } from '@tally/runtime';
import { couponAggregate, couponIdOf } from './coupon.aggregate';
import { couponAt } from './coupon.view';
import { DURATIONS } from './dto/coupon.dto';

/** Coupons through the API, by id or code: their read model and public events, retrieve (with `as_of`) and list, each as valid when read. */
export const couponResource = defineResource({
  aggregate: couponAggregate,
  idOf: couponIdOf,
  at: couponAt,
  indexes: [scopedIndex('created_at'), scopedIndex('updated_at'), scopedIndex('code')],
  list: {
    sortable: ['created_at', 'updated_at', 'code'],
    filters: {
      code: { ops: ['eq', 'in', 'starts'] },
      duration: { ops: ['eq', 'in'], values: DURATIONS },
      currency: { ops: ['eq', 'in'] },
      created_at: TIMESTAMP_FILTER,
    },
  },
});
