import { derivedId, DomainError, isIdOf } from '@tally/kernel';
import { publishedCommands, type AggregateDefinition } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { couponDecider, type CouponCommand, type CouponState } from './domain/coupon.decider';
import type { CouponEvent } from './domain/coupon.events';
import { couponView, type CouponResource } from './coupon.view';

export const couponAggregate: AggregateDefinition<CouponState, CouponCommand, CouponEvent, CouponResource> = {
  type: 'coupon',
  decider: couponDecider,
  view: couponView,
  notFound: (id) => DomainError.notFound('coupon.not_found', `No coupon ${id}`),
};

/** The coupon as subscriptions address it: redeeming it is the command catalog publishes to them. */
export const couponRedemptions = publishedCommands(couponAggregate, ['RedeemCoupon']);

/** Like a plan's, a coupon's id derives from its code within the tenant and environment; codes never start with `cpn_`. */
export function couponIdOf(context: RequestContext, codeOrId: string): string {
  return isIdOf('cpn', codeOrId) ? codeOrId : derivedId('cpn', [context.tenantId, context.environment, codeOrId]);
}
