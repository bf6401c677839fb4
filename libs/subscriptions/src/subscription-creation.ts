import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, keyedObject, type FieldError, type IdGenerator, type Metadata } from '@tally/kernel';
import { couponAggregate, couponIdOf, planAggregate, unredeemableReason, type Plan } from '@tally/catalog';
import { assertAttachedPaymentMethod, customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, type CommandOutcome } from '@tally/runtime';
import { subscriptionDecider, type CreateSubscription, type PaymentBehavior, type Subscription, type SubscriptionCommand, type SubscriptionState } from './domain/subscription.decider';
import type { Commitment, PauseBehavior, ProrationBehavior } from './domain/subscription.events';
import { cadenceOf, checkQuantities, licensedCharges, loadPlan, subscribablePlan } from './plan-terms';
import { subscriptionAggregate } from './subscription.aggregate';
import type { SubscriptionResource } from './subscription.view';

/** A subscription as a command left it, with the revision for its ETag. */
export interface SubscriptionWritten {
  subscription: SubscriptionResource;
  revision: number;
}

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

export class CreateSubscriptionCommand extends Command<SubscriptionWritten> {
  constructor(
    readonly context: RequestContext,
    readonly input: CreateSubscriptionInput,
  ) {
    super();
  }
}

export interface SubscriptionPatch {
  plan_code?: string;
  proration_behavior?: ProrationBehavior;
  default_payment_method_id?: string | null;
  metadata?: Metadata;
}

export class UpdateSubscriptionCommand extends Command<SubscriptionWritten> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    readonly patch: SubscriptionPatch,
    readonly expectedRevision: number | undefined,
  ) {
    super();
  }
}

export class ChangeQuantityCommand extends Command<SubscriptionWritten> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    readonly change: { meter: string; quantity: number; effective_at: 'now' | 'next_period' },
  ) {
    super();
  }
}

/** Pause, resume and cancel: commands decided by the time of the subscription's clock, with nothing to look up. */
export type LifecycleIntent =
  | { type: 'PauseSubscription'; data: { until: string | null; behavior: PauseBehavior } }
  | { type: 'ResumeSubscription'; data: { automatic: false } | { automatic: true; until: string } }
  | { type: 'CancelSubscription'; data: { when: 'now' | 'period_end'; reason: string | null; final_invoice?: false } }
  | { type: 'EndTrial'; data: Record<string, never> }
  | { type: 'WarnTrialEnding'; data: Record<string, never> }
  | { type: 'ClosePeriod'; data: { period_end: string } }
  | { type: 'WarnCommitmentEnding'; data: { commitment_end: string } }
  | { type: 'RecordInvoicePaid'; data: { invoice_id: string } }
  | { type: 'ExpireIncomplete'; data: Record<string, never> }
  /** Sent by the payments flow when an invoice's payment fails: dunning begins. */
  | { type: 'MarkPastDue'; data: { invoice_id: string } };

export class ApplySubscriptionLifecycleCommand extends Command<SubscriptionWritten> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    readonly intent: LifecycleIntent,
  ) {
    super();
  }
}

const written = ({ resource, revision }: CommandOutcome<unknown, SubscriptionResource>): SubscriptionWritten => ({ subscription: resource!, revision });

@CommandHandler(CreateSubscriptionCommand)
export class CreateSubscriptionHandler implements ICommandHandler<CreateSubscriptionCommand, SubscriptionWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Everything is checked before anything is written: the customer, the plan, the quantities, the
   * coupons, and the subscription's own rules (a dry run of its decider). Then the coupons are
   * redeemed (each coupon's stream counts its redemptions, so a limit holds under races), the plan
   * is marked as used, and the subscription is created on its customer's clock.
   */
  async execute({ context, input }: CreateSubscriptionCommand): Promise<SubscriptionWritten> {
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
      await this.runtime.execute(couponAggregate, coupon.id, { type: 'RedeemCoupon', data: { coupon_id: coupon.id, subscription_id: id, at } }, context);
    }
    await this.runtime.execute(planAggregate, plan.id, { type: 'RecordPlanReference', data: { plan_id: plan.id, subscription_id: id, at } }, context);
    return written(await this.runtime.execute(subscriptionAggregate, id, (now) => ({ ...create, data: { ...create.data, at: now } }), onClock, { newStream: true }));
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

@CommandHandler(UpdateSubscriptionCommand)
export class UpdateSubscriptionHandler implements ICommandHandler<UpdateSubscriptionCommand, SubscriptionWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, subscriptionId, patch, expectedRevision }: UpdateSubscriptionCommand): Promise<SubscriptionWritten> {
    const newPlan = patch.plan_code === undefined ? undefined : await subscribablePlan(this.runtime, context, patch.plan_code);
    return written(
      await this.runtime.execute(
        subscriptionAggregate,
        subscriptionId,
        async (at, state): Promise<SubscriptionCommand> => {
          const plan = newPlan && state.status !== 'none' ? await this.planChange(context, live(state, subscriptionId), newPlan, patch.proration_behavior ?? 'create_prorations') : undefined;
          if (patch.default_payment_method_id && state.status !== 'none') {
            const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, live(state, subscriptionId).customerId, context);
            assertAttachedPaymentMethod(customer.state, patch.default_payment_method_id);
          }
          return {
            type: 'UpdateSubscription',
            data: {
              subscription_id: subscriptionId,
              at,
              ...(plan && { plan }),
              ...(patch.metadata !== undefined && { metadata: patch.metadata }),
              ...(patch.default_payment_method_id !== undefined && { default_payment_method_id: patch.default_payment_method_id }),
            },
          };
        },
        context,
        { expectedRevision },
      ),
    );
  }

  /** What the licensed components cost for the current period on the old plan and on the new one, at today's quantities. */
  private async planChange(context: RequestContext, subscription: Subscription, plan: Plan, proration_behavior: ProrationBehavior) {
    const current = await loadPlan(this.runtime, context, subscription.planCode);
    return {
      plan_code: plan.code,
      currency: plan.currency,
      cadence: cadenceOf(plan),
      proration_behavior,
      before: licensedCharges(current, subscription.quantities, subscription.period),
      after: licensedCharges(plan, subscription.quantities, subscription.period),
    };
  }
}

@CommandHandler(ChangeQuantityCommand)
export class ChangeQuantityHandler implements ICommandHandler<ChangeQuantityCommand, SubscriptionWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, subscriptionId, change }: ChangeQuantityCommand): Promise<SubscriptionWritten> {
    return written(
      await this.runtime.execute(
        subscriptionAggregate,
        subscriptionId,
        async (at, state): Promise<SubscriptionCommand> => {
          const subscription = live(state, subscriptionId);
          const plan = await loadPlan(this.runtime, context, subscription.planCode);
          checkQuantities(plan, new Map([[change.meter, change.quantity]]), at, 'meter');
          const after = keyedObject([...Object.entries(subscription.quantities), [change.meter, change.quantity]]);
          return {
            type: 'ChangeQuantity',
            data: { subscription_id: subscriptionId, at, ...change, before: licensedCharges(plan, subscription.quantities, subscription.period), after: licensedCharges(plan, after, subscription.period) },
          };
        },
        context,
      ),
    );
  }
}

@CommandHandler(ApplySubscriptionLifecycleCommand)
export class ApplySubscriptionLifecycleHandler implements ICommandHandler<ApplySubscriptionLifecycleCommand, SubscriptionWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, subscriptionId, intent }: ApplySubscriptionLifecycleCommand): Promise<SubscriptionWritten> {
    return written(
      await this.runtime.execute(
        subscriptionAggregate,
        subscriptionId,
        async (at, state): Promise<SubscriptionCommand> => {
          const data = { subscription_id: subscriptionId, at };
          if (intent.type !== 'CancelSubscription') return { type: intent.type, data: { ...data, ...intent.data } } as SubscriptionCommand;
          return { type: 'CancelSubscription', data: { ...data, ...intent.data, charges: await this.currentCharges(context, state) } };
        },
        context,
      ),
    );
  }

  /** What the current period was billed for: the credit of a cancellation `now` is its unused part. */
  private async currentCharges(context: RequestContext, state: SubscriptionState) {
    if (state.status !== 'active' && state.status !== 'past_due') return [];
    const plan = await loadPlan(this.runtime, context, state.planCode);
    return licensedCharges(plan, state.quantities, state.period);
  }
}

function live(state: SubscriptionState, id: string): Subscription {
  if (state.status === 'none') throw subscriptionAggregate.notFound(id);
  return state;
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

export const subscriptionCommandHandlers = [CreateSubscriptionHandler, UpdateSubscriptionHandler, ChangeQuantityHandler, ApplySubscriptionLifecycleHandler];
