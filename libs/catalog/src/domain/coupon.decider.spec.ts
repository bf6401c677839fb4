import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { couponDecider, type CreateCoupon } from './coupon.decider';
import type { CouponCreated, CouponEvent } from './coupon.events';

const spec = DeciderSpecification.for(couponDecider);
const NOW = '2026-05-01T10:00:00.000Z';
const END = '2026-06-01T00:00:00.000Z';

const terms = {
  percent_off: '25',
  amount_off: null,
  currency: null,
  duration: 'repeating' as const,
  duration_in_periods: 3,
  max_redemptions: 2,
  redeem_by: END,
  applies_to: null,
};
const createData = { coupon_id: 'cpn_1', code: 'SPRING25', name: 'Spring', metadata: {}, ...terms };
const create: CreateCoupon = { type: 'CreateCoupon', data: { ...createData, at: NOW } };
const created: CouponCreated = { type: 'CouponCreated', data: createData };
const redeemed = (subscription_id: string, redeemed_at = NOW): CouponEvent => ({ type: 'CouponRedeemed', data: { coupon_id: 'cpn_1', subscription_id, redeemed_at } });
const redeem = (subscription_id: string, at = NOW) => ({ type: 'RedeemCoupon' as const, data: { coupon_id: 'cpn_1', subscription_id, at } });

describe('coupon decider', () => {
  it('creates a coupon', () => {
    spec.given([]).when(create).then([created]);
  });

  it('keeps a code taken, even after the coupon was deleted', () => {
    spec.given([created]).when(create).thenFails('coupon.code_taken');
    spec.given([created, { type: 'CouponDeleted', data: { coupon_id: 'cpn_1' } }]).when(create).thenFails('coupon.code_taken');
  });

  it.each([
    ['both percent_off and amount_off', { amount_off: '5.00', currency: 'EUR' }],
    ['neither percent_off nor amount_off', { percent_off: null }],
    ['a percentage above 100', { percent_off: '100.01' }],
    ['a percentage of 0', { percent_off: '0' }],
    ['a percentage with 3 decimals', { percent_off: '12.345' }],
    ['an amount_off without currency', { percent_off: null, amount_off: '5.00' }],
    ['an amount_off in a lowercase currency', { percent_off: null, amount_off: '5.00', currency: 'eur' }],
    ['a currency on a percentage coupon', { currency: 'EUR' }],
    ['a negative amount_off', { percent_off: null, amount_off: '-5', currency: 'EUR' }],
    ['an amount_off finer than its currency', { percent_off: null, amount_off: '0.5', currency: 'JPY' }],
    ['repeating without duration_in_periods', { duration_in_periods: null }],
    ['duration_in_periods without repeating', { duration: 'forever' as const }],
    ['a redeem_by in the past', { redeem_by: '2026-04-01T00:00:00.000Z' }],
    ['a component listed twice', { applies_to: { components: ['seats', 'seats'] } }],
  ])('refuses %s', (_name, change) => {
    spec.given([]).when({ type: 'CreateCoupon', data: { ...create.data, ...change } }).thenFails('coupon.invalid');
  });

  it('updates name and metadata only when they change', () => {
    spec
      .given([created])
      .when({ type: 'UpdateCoupon', data: { coupon_id: 'cpn_1', name: 'Spring sale', metadata: { campaign: 'q2' } } })
      .then([{ type: 'CouponUpdated', data: { coupon_id: 'cpn_1', name: 'Spring sale', metadata: { campaign: 'q2' } } }]);
    spec.given([created]).when({ type: 'UpdateCoupon', data: { coupon_id: 'cpn_1', name: 'Spring' } }).thenNothingHappens();
  });

  it('deletes a coupon, which then no longer exists for commands', () => {
    const deleted: CouponEvent = { type: 'CouponDeleted', data: { coupon_id: 'cpn_1' } };
    spec.given([created]).when({ type: 'DeleteCoupon', data: { coupon_id: 'cpn_1' } }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteCoupon', data: { coupon_id: 'cpn_1' } }).thenFails('coupon.not_found');
    spec.given([created, deleted]).when(redeem('sub_1')).thenFails('coupon.not_found');
  });

  describe('redemption', () => {
    it('counts each subscription once', () => {
      spec.given([created]).when(redeem('sub_1')).then([redeemed('sub_1')]);
      spec.given([created, redeemed('sub_1')]).when(redeem('sub_1')).thenNothingHappens();
    });

    it('stops at max_redemptions', () => {
      spec.given([created, redeemed('sub_1'), redeemed('sub_2')]).when(redeem('sub_3')).thenFails('coupon.max_redemptions_reached');
    });

    it('stops after redeem_by', () => {
      spec.given([created]).when(redeem('sub_1', '2026-06-01T00:00:00.001Z')).thenFails('coupon.expired');
      spec.given([created]).when(redeem('sub_1', END)).then([redeemed('sub_1', END)]);
    });
  });
});
