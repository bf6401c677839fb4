import { Injectable } from '@nestjs/common';
import { keyedObject, type Metadata } from '@tally/kernel';
import { assertAttachedPaymentMethod, customerAggregate } from '@tally/customers';
import type { Plan } from '@tally/catalog';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { CancelSubscription, PlanChange, Subscription, SubscriptionCommand, SubscriptionState } from './domain/subscription.decider';
import type { ProrationBehavior } from './domain/subscription.events';
import { cadenceOf, checkQuantities, licensedCharges, loadPlan, subscribablePlan } from './plan-terms';
import { subscriptionAggregate } from './subscription.aggregate';
import { written, type SubscriptionWritten } from './subscription-written';

export interface SubscriptionPatch {
  plan_code?: string;
  proration_behavior?: ProrationBehavior;
  default_payment_method_id?: string | null;
  metadata?: Metadata;
}

/**
 * The changes of a subscription whose command needs what the catalog or the customer says: the
 * prices a plan or quantity change prorates, a default method the customer must hold, the charges
 * a cancellation `now` credits. Each is one command to the subscription, built against the state
 * it is decided on (again on a retry).
 */
@Injectable()
export class SubscriptionChanges {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  async update(context: RequestContext, subscriptionId: string, patch: SubscriptionPatch, expectedRevision: number | undefined): Promise<SubscriptionWritten> {
    const newPlan = patch.plan_code === undefined ? undefined : await subscribablePlan(this.runtime, context, patch.plan_code);
    const command = async (at: string, state: SubscriptionState): Promise<SubscriptionCommand> => {
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
    };
    return written(await this.commands.send(subscriptionAggregate, subscriptionId, command, context, { expectedRevision }));
  }

  async changeQuantity(context: RequestContext, subscriptionId: string, change: { meter: string; quantity: number; effective_at: 'now' | 'next_period' }): Promise<SubscriptionWritten> {
    const command = async (at: string, state: SubscriptionState): Promise<SubscriptionCommand> => {
      const subscription = live(state, subscriptionId);
      const plan = await loadPlan(this.runtime, context, subscription.planCode);
      checkQuantities(plan, new Map([[change.meter, change.quantity]]), at, 'meter');
      const after = keyedObject([...Object.entries(subscription.quantities), [change.meter, change.quantity]]);
      return {
        type: 'ChangeQuantity',
        data: { subscription_id: subscriptionId, at, ...change, before: licensedCharges(plan, subscription.quantities, subscription.period), after: licensedCharges(plan, after, subscription.period) },
      };
    };
    return written(await this.commands.send(subscriptionAggregate, subscriptionId, command, context));
  }

  /** A cancellation `now` credits the unused time of what the current period was billed for. */
  async cancel(context: RequestContext, subscriptionId: string, { when, reason }: Pick<CancelSubscription['data'], 'when' | 'reason'>): Promise<SubscriptionWritten> {
    const command = async (at: string, state: SubscriptionState): Promise<CancelSubscription> => ({
      type: 'CancelSubscription',
      data: { subscription_id: subscriptionId, at, when, reason, charges: await this.currentCharges(context, state) },
    });
    return written(await this.commands.send(subscriptionAggregate, subscriptionId, command, context));
  }

  /** What the licensed components cost for the current period on the old plan and on the new one, at today's quantities. */
  private async planChange(context: RequestContext, subscription: Subscription, plan: Plan, proration_behavior: ProrationBehavior): Promise<PlanChange> {
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

  private async currentCharges(context: RequestContext, state: SubscriptionState) {
    if (state.status !== 'active' && state.status !== 'past_due') return [];
    const plan = await loadPlan(this.runtime, context, state.planCode);
    return licensedCharges(plan, state.quantities, state.period);
  }
}

/**
 * A cancellation `now` without a final invoice (its customer was deleted, or dunning gave up):
 * nothing is credited, so it needs no charges; sent as `commands.send(subscriptionAggregate, id, cancelWithoutFinalInvoice(id, reason), context)`.
 */
export const cancelWithoutFinalInvoice =
  (subscriptionId: string, reason: string) =>
  (at: string): CancelSubscription => ({ type: 'CancelSubscription', data: { subscription_id: subscriptionId, at, when: 'now', reason, charges: [], final_invoice: false } });

function live(state: SubscriptionState, id: string): Subscription {
  if (state.status === 'none') throw subscriptionAggregate.notFound(id);
  return state;
}
