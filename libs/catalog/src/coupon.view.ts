import { assertNever } from '@tally/kernel';
import type { ResourceView } from '@tally/runtime';
import type { CouponEvent, CouponTerms } from './domain/coupon.events';

export interface CouponResource extends CouponTerms {
  [field: string]: unknown;
  id: string;
  object: 'coupon';
  code: string;
  name: string | null;
  times_redeemed: number;
  /** Whether it can still be redeemed, at the moment this representation was made. */
  valid: boolean;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** The coupon as of `at`: `valid` until its redeem_by passes or its redemptions run out. */
export function couponAt(coupon: CouponResource, at: string): CouponResource {
  const expired = coupon.redeem_by !== null && at > coupon.redeem_by;
  const exhausted = coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions;
  return { ...coupon, valid: !expired && !exhausted };
}

/** The coupon as the API shows it; a deleted coupon leaves the read model (its public event keeps its last state). */
export const couponView: ResourceView<CouponResource, CouponEvent> = {
  aggregateType: 'coupon',
  collection: 'coupons',

  apply(coupon, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'CouponCreated') {
      const { coupon_id, code, name, percent_off, amount_off, currency, duration, duration_in_periods, max_redemptions, redeem_by, applies_to, metadata } = event.data;
      const created: CouponResource = {
        id: coupon_id,
        object: 'coupon',
        code,
        name,
        percent_off,
        amount_off,
        currency,
        duration,
        duration_in_periods,
        max_redemptions,
        redeem_by,
        applies_to,
        times_redeemed: 0,
        valid: true,
        metadata: { ...metadata },
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
      return couponAt(created, at);
    }
    if (!coupon) return undefined;
    switch (event.type) {
      case 'CouponUpdated': {
        const { coupon_id: _id, ...changes } = event.data;
        return couponAt({ ...coupon, ...changes, metadata: { ...(changes.metadata ?? coupon.metadata) }, updated_at: at }, at);
      }
      case 'CouponRedeemed':
        return couponAt({ ...coupon, times_redeemed: coupon.times_redeemed + 1, updated_at: at }, at);
      case 'CouponDeleted':
        return undefined;
      default:
        return assertNever(event);
    }
  },

  publicTypes: ['coupon.created', 'coupon.updated', 'coupon.deleted'],
  publicType(event) {
    switch (event.type) {
      case 'CouponCreated':
        return 'coupon.created';
      case 'CouponDeleted':
        return 'coupon.deleted';
      default:
        return 'coupon.updated';
    }
  },
};
