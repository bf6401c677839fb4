import { resourceProjection } from '@tally/runtime';
import { COUPON_INDEXES } from './coupon.queries';
import { couponView } from './coupon.view';

/** The coupons read model and the coupons' entries in the public event log. */
export const couponProjection = resourceProjection(couponView, COUPON_INDEXES);
