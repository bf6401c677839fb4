import type { Event, Metadata } from '@tally/kernel';

export type CouponDuration = 'once' | 'repeating' | 'forever';

/** Stripe's coupon: a percentage or a fixed amount off, for one, several or every billing period. */
export interface CouponTerms {
  /** Percent as a decimal string (`25`, `12.5`), or null when the coupon takes an amount off. */
  percent_off: string | null;
  amount_off: string | null;
  /** The currency of `amount_off`; null for percentage coupons. */
  currency: string | null;
  duration: CouponDuration;
  /** Billing periods a `repeating` coupon lasts; null otherwise. */
  duration_in_periods: number | null;
  max_redemptions: number | null;
  /** The last moment the coupon can be redeemed. */
  redeem_by: string | null;
  /** null: every line of the invoice; otherwise only the lines of these component codes. */
  applies_to: { components: string[] } | null;
}

export type CouponCreated = Event<'CouponCreated', CouponTerms & { coupon_id: string; code: string; name: string | null; metadata: Metadata }>;

/** Carries the new value of each changed field only; the terms of a coupon never change. */
export type CouponUpdated = Event<'CouponUpdated', { coupon_id: string; name?: string | null; metadata?: Metadata }>;

export type CouponDeleted = Event<'CouponDeleted', { coupon_id: string }>;

/** A subscription took the coupon; counts against `max_redemptions`. */
export type CouponRedeemed = Event<'CouponRedeemed', { coupon_id: string; subscription_id: string; redeemed_at: string }>;

export type CouponEvent = CouponCreated | CouponUpdated | CouponDeleted | CouponRedeemed;
