import { assertNever, checkMetadata, DomainError, mergeMetadata, type Command, type Decider, type Metadata } from '@tally/kernel';
import { checkCouponTerms } from './coupon-terms';
import type { CouponCreated, CouponEvent, CouponTerms } from './coupon.events';

export interface Coupon {
  status: 'active' | 'deleted';
  id: string;
  code: string;
  name: string | null;
  terms: CouponTerms;
  metadata: Metadata;
  /** Subscriptions that redeemed the coupon. */
  redeemedBy: readonly string[];
}

export type CouponState = { status: 'none' } | Coupon;

/** Every command that depends on time carries `at`, the moment it is handled (ISO 8601 UTC). */
export type CreateCoupon = Command<'CreateCoupon', CouponCreated['data'] & { at: string }>;
export type UpdateCoupon = Command<'UpdateCoupon', { coupon_id: string; name?: string | null; metadata?: Metadata }>;
export type DeleteCoupon = Command<'DeleteCoupon', { coupon_id: string }>;
export type RedeemCoupon = Command<'RedeemCoupon', { coupon_id: string; subscription_id: string; at: string }>;

export type CouponCommand = CreateCoupon | UpdateCoupon | DeleteCoupon | RedeemCoupon;

/** A deleted coupon no longer exists for the API (as in Stripe), but its code stays taken. */
const notFound = (id: string) => DomainError.notFound('coupon.not_found', `No coupon ${id}`);

/** Why a coupon cannot be redeemed at `at`, or undefined when it can. */
export function unredeemableReason(coupon: Coupon, at: string): DomainError | undefined {
  if (coupon.status === 'deleted') return notFound(coupon.id);
  if (coupon.terms.redeem_by !== null && at > coupon.terms.redeem_by) {
    return DomainError.conflict('coupon.expired', `Coupon ${coupon.code} could be redeemed until ${coupon.terms.redeem_by}`);
  }
  if (coupon.terms.max_redemptions !== null && coupon.redeemedBy.length >= coupon.terms.max_redemptions) {
    return DomainError.conflict('coupon.max_redemptions_reached', `Coupon ${coupon.code} was redeemed ${coupon.terms.max_redemptions} times, its maximum`);
  }
  return undefined;
}

export const couponDecider: Decider<CouponState, CouponCommand, CouponEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateCoupon') {
      if (state.status !== 'none') throw DomainError.conflict('coupon.code_taken', `Coupon code ${command.data.code} is taken (codes of deleted coupons stay taken)`);
      const { at, ...data } = command.data;
      checkCouponTerms(data, at);
      checkMetadata(data.metadata);
      return [{ type: 'CouponCreated', data }];
    }
    if (state.status !== 'active') throw notFound(command.data.coupon_id);
    switch (command.type) {
      case 'UpdateCoupon': {
        const { name, metadata: patch } = command.data;
        const metadata = patch === undefined ? state.metadata : mergeMetadata(state.metadata, patch);
        checkMetadata(metadata);
        const changes = {
          ...(name !== undefined && name !== state.name && { name }),
          ...(JSON.stringify(metadata) !== JSON.stringify(state.metadata) && { metadata }),
        };
        return Object.keys(changes).length > 0 ? [{ type: 'CouponUpdated', data: { coupon_id: state.id, ...changes } }] : [];
      }
      case 'DeleteCoupon':
        return [{ type: 'CouponDeleted', data: { coupon_id: state.id } }];
      case 'RedeemCoupon': {
        if (state.redeemedBy.includes(command.data.subscription_id)) return [];
        const refusal = unredeemableReason(state, command.data.at);
        if (refusal) throw refusal;
        return [{ type: 'CouponRedeemed', data: { coupon_id: state.id, subscription_id: command.data.subscription_id, redeemed_at: command.data.at } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'CouponCreated') {
      const { coupon_id, code, name, metadata, ...terms } = event.data;
      return { status: 'active', id: coupon_id, code, name, terms, metadata, redeemedBy: [] };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'CouponUpdated': {
        const { name, metadata } = event.data;
        return { ...state, ...(name !== undefined && { name }), ...(metadata !== undefined && { metadata }) };
      }
      case 'CouponDeleted':
        return { ...state, status: 'deleted' };
      case 'CouponRedeemed':
        return { ...state, redeemedBy: [...state.redeemedBy, event.data.subscription_id] };
      default:
        return assertNever(event);
    }
  },
};
