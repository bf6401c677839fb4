import { Inject, Injectable } from '@nestjs/common';
import { DomainError, keyedObject, type FieldError, type IdGenerator, type Metadata } from '@tally/kernel';
import { couponAggregate, couponIdOf, couponRedemptions, planReferences, unredeemableReason, type Plan } from '@tally/catalog';
import { assertAttachedPaymentMethod, customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands } from '@tally/runtime';
import { subscriptionDecider, type CreateSubscription, type PaymentBehavior } from './domain/subscription.decider';
import type { Commitment } from './domain/subscription.events';
import { cadenceOf, checkQuantities, subscribablePlan } from './plan-terms';
import { subscriptionAggregate } from './subscription.aggregate';
import { written, type SubscriptionWritten } from './subscription-written';

export interface CreateSubscriptionInput {
  customer_id: string;
  plan_code: string;
  default_payment_method_id: string | null;
  trial_days: number | undefined;
  billing_cycle_anchor: string | null;
  quantities: Record<string, unknown>;
  coupons: string[];
  commitment: Commitment | null;
  metadata: Metadata;
  payment_behavior: PaymentBehavior;
  proration_behavior: CreateSubscription['data']['proration_behavior'];
}

/** A subscription's creation: a step over its customer, its plan and its coupons, each changed by its own context's commands. */
@Injectable()
export class SubscriptionCreation {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Everything is checked before anything is written: the customer, the plan, the quantities, the
   * coupons, and the subscription's own rules (a dry run of its decider). Then the coupons are
   * redeemed (each coupon's stream counts its redemptions, so a limit holds under races), the plan
   * is marked as used, and the subscription is created on its customer's clock.
   */
  async create(context: RequestContext, input: CreateSubscriptionInput): Promise<SubscriptionWritten> {
    const cell = this.runtime.cellOf(context);
    const customer = await this.runtime.load(cell, customerAggregate, input.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(input.customer_id);
    assertAttachedPaymentMethod(customer.state, input.default_payment_method_id);
    const onClock = onClockOf(context, customer.clockId);
    const at = (await this.clocks.now(cell, customer.clockId)).toISOString();

    const plan = await subscribablePlan(this.runtime, context, input.plan_code);
    const quantities = parseQuantities(input.quantities);
    checkQuantities(plan, quantities, at);
    const coupons = await this.redeemableCoupons(context, input.coupons, plan, at);

    const id = this.ids.next('sub');
    const create: CreateSubscription = {
      type: 'CreateSubscription',
      data: {
        subscription_id: id,
        customer_id: input.customer_id,
        plan_code: plan.code,
        currency: plan.currency,
        cadence: cadenceOf(plan),
        quantities: keyedObject(quantities),
        coupons: coupons.map((coupon) => coupon.code),
        metadata: input.metadata,
        default_payment_method_id: input.default_payment_method_id,
        commitment: input.commitment,
        at,
        trial_days: input.trial_days ?? plan.trialDays,
        billing_cycle_anchor: input.billing_cycle_anchor,
        payment_behavior: input.payment_behavior,
        proration_behavior: input.proration_behavior,
      },
    };
    subscriptionDecider.decide(create, subscriptionDecider.initialState());

    for (const coupon of coupons) {
      await this.commands.send(couponRedemptions, coupon.id, { type: 'RedeemCoupon', data: { coupon_id: coupon.id, subscription_id: id, at } }, context);
    }
    await this.commands.send(planReferences, plan.id, { type: 'RecordPlanReference', data: { plan_id: plan.id, subscription_id: id, at } }, context);
    return written(await this.commands.send(subscriptionAggregate, id, (now) => ({ ...create, data: { ...create.data, at: now } }), onClock, { newStream: true }));
  }

  private async redeemableCoupons(context: RequestContext, codes: readonly string[], plan: Plan, at: string): Promise<{ id: string; code: string }[]> {
    const ids = codes.map((code) => couponIdOf(context, code));
    if (new Set(ids).size !== ids.length) throw DomainError.invalid('subscription.duplicate_coupon', 'A coupon can discount a subscription once', [{ field: 'coupons', code: 'subscription.duplicate_coupon', message: 'each coupon once' }]);
    const cell = this.runtime.cellOf(context);
    return Promise.all(
      codes.map(async (code, i) => {
        const { state: coupon } = await this.runtime.load(cell, couponAggregate, ids[i], context);
        if (coupon.status === 'none') throw couponAggregate.notFound(code);
        const refusal = unredeemableReason(coupon, at);
        if (refusal) throw refusal;
        if (coupon.terms.amount_off !== null && coupon.terms.currency !== plan.currency) {
          throw DomainError.unprocessable('subscription.coupon_currency_mismatch', `Coupon ${coupon.code} takes ${coupon.terms.currency} off; the plan bills in ${plan.currency}`, [
            { field: `coupons[${i}]`, code: 'subscription.coupon_currency_mismatch', message: `an amount off in ${plan.currency}, or a percentage` },
          ]);
        }
        return { id: coupon.id, code: coupon.code };
      }),
    );
  }
}

/** Quantities are whole numbers from 0, by meter: a Map, since a meter is a client's name. */
function parseQuantities(quantities: Record<string, unknown>): Map<string, number> {
  const errors: FieldError[] = [];
  const parsed = new Map<string, number>();
  for (const [meter, value] of Object.entries(quantities)) {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) parsed.set(meter, value);
    else errors.push({ field: `quantities.${meter}`, code: 'subscription.invalid_quantity', message: 'a whole number, 0 or more' });
  }
  if (errors.length > 0) throw DomainError.invalid('subscription.invalid_quantity', 'Some quantities are not valid', errors);
  return parsed;
}
