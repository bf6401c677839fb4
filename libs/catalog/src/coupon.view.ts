import { defineView, type StampedResource } from '@tally/runtime';
import type { CouponEvent, CouponTerms } from './domain/coupon.events';

export interface CouponResource extends StampedResource, CouponTerms {
  object: 'coupon';
  code: string;
  name: string | null;
  times_redeemed: number;
  /** Whether it can still be redeemed, at the moment this representation was made. */
  valid: boolean;
  metadata: Record<string, string>;
}

/** The coupon as of `at`: `valid` until its redeem_by passes or its redemptions run out. */
export function couponAt(coupon: CouponResource, at: string): CouponResource {
  const expired = coupon.redeem_by !== null && at > coupon.redeem_by;
  const exhausted = coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions;
  return { ...coupon, valid: !expired && !exhausted };
}

/** The coupon as the API shows it; a deleted coupon leaves the read model (its public event keeps its last state). */
export const couponView = defineView<CouponResource, CouponEvent, 'CouponCreated'>({
  object: 'coupon',
  created: {
    type: 'CouponCreated',
    fields: ({ code, name, percent_off, amount_off, currency, duration, duration_in_periods, max_redemptions, redeem_by, applies_to, metadata }) => ({
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
      metadata,
    }),
  },
  changes: {
    CouponUpdated: (coupon, { coupon_id: _id, ...changes }) => ({ ...changes, metadata: changes.metadata ?? coupon.metadata }),
    CouponRedeemed: (coupon) => ({ times_redeemed: coupon.times_redeemed + 1 }),
    CouponDeleted: 'deleted',
  },
  publicTypes: { CouponCreated: 'coupon.created', CouponUpdated: 'coupon.updated', CouponRedeemed: 'coupon.updated', CouponDeleted: 'coupon.deleted' },
  derive: couponAt,
});
