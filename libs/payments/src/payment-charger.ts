import { Inject, Injectable } from '@nestjs/common';
import { Clocks, CommandRuntime, type CommandOutcome } from '@tally/runtime';
import { CLOCK, type RequestContext } from '@tally/cells';
import type { Clock, DomainError } from '@tally/kernel';
import type { InvoicePaymentStarted } from '@tally/invoicing';
import { planAggregate, planIdOf } from '@tally/catalog';
import { subscriptionAggregate } from '@tally/subscriptions';
import { DEFAULT_DUNNING, type DunningTerms } from './domain/dunning';
import type { PaymentState, ProviderAnswer } from './domain/payment.decider';
import { attachedMethod } from './domain/payment-method.decider';
import { paymentAggregate } from './payment.aggregate';
import type { PaymentResource } from './payment.view';
import { PaymentActionLinks } from './payment-action-links';
import { paymentMethodAggregate } from './payment-method.aggregate';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { PAYMENT_PROVIDER, type ChargeOutcome, type PaymentProvider } from './provider/payment-provider.port';

type Outcome = CommandOutcome<PaymentState, PaymentResource>;

/**
 * Creates a payment from its invoice's attempt and charges it through the provider. Both steps may
 * run twice (the request that started them, then the payment flow reaction after a crash): the
 * payment stream exists once, and the provider's idempotency key (`charge:<payment id>`) makes a
 * second charge answer the first one's outcome without charging again.
 */
@Injectable()
export class PaymentCharger {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly links: PaymentActionLinks,
    private readonly outcomes: PaymentOutcomeOnInvoice,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    /** Links expire by the system clock, whatever clock the payment lives on. */
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(context: RequestContext, attempt: InvoicePaymentStarted['data']): Promise<Outcome> {
    const cell = this.runtime.cellOf(context);
    const method = attachedMethod((await this.runtime.load(cell, paymentMethodAggregate, attempt.payment_method_id, context)).state, attempt.payment_method_id);
    const { invoice_id, payment_id, customer_id, subscription_id, payment_method_id, amount, currency, reason, return_url } = attempt;
    const dunning = subscription_id ? await this.dunningOf(context, subscription_id) : null;
    const data = { payment_id, invoice_id, customer_id, subscription_id, payment_method_id, provider: this.provider.name, provider_ref: method.providerRef, amount, currency, reason, dunning, return_url: return_url ?? null };
    return this.runtime.execute(paymentAggregate, payment_id, { type: 'CreatePayment', data }, context);
  }

  /** The dunning policy of the subscription's plan, its defaults filled in, or Tally's default. */
  private async dunningOf(context: RequestContext, subscriptionId: string): Promise<DunningTerms> {
    const cell = this.runtime.cellOf(context);
    const subscription = await this.runtime.load(cell, subscriptionAggregate, subscriptionId, context);
    if (subscription.state.status === 'none') return DEFAULT_DUNNING;
    const plan = await this.runtime.load(cell, planAggregate, planIdOf(context, subscription.state.planCode), context);
    const policy = plan.state.status === 'none' ? null : plan.state.dunningPolicy;
    return policy ? { retry_days: policy.retry_days, final_action: policy.final_action, use_provider_hints: policy.use_provider_hints ?? true } : DEFAULT_DUNNING;
  }

  async charge(context: RequestContext, paymentId: string): Promise<Outcome> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (loaded.state.status !== 'pending') return { ...loaded, appended: [] };
    const { providerRef, amount, currency } = loaded.state;
    const now = (await this.clocks.now(cell, loaded.clockId)).toISOString();
    const outcome = await this.provider.charge({ providerRef, amount, currency, now, idempotencyKey: `charge:${paymentId}` });
    return this.record(context, paymentId, this.answerOf(context, paymentId, outcome));
  }

  /**
   * The provider's later answer for a payment waiting in `from` (an action the customer completed,
   * a bank payment that settled), asked with the time on the payment's clock, and recorded.
   */
  async followUp(
    context: RequestContext,
    paymentId: string,
    from: 'requires_action' | 'processing',
    refusal: (status: string) => DomainError,
    ask: (providerPaymentId: string, now: string) => Promise<ChargeOutcome>,
  ): Promise<PaymentResource> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (loaded.state.status === 'none') throw paymentAggregate.notFound(paymentId);
    if (loaded.state.status !== from || !loaded.state.providerId) throw refusal(loaded.state.status);
    const now = (await this.clocks.now(cell, loaded.clockId)).toISOString();
    const answer = await ask(loaded.state.providerId, now);
    return (await this.record(context, paymentId, this.answerOf(context, paymentId, answer))).resource!;
  }

  /** Records what the provider answered, and on the invoice the outcome it brought, if any. */
  async record(context: RequestContext, paymentId: string, answer: ProviderAnswer): Promise<Outcome> {
    const recorded = await this.runtime.execute(paymentAggregate, paymentId, { type: 'RecordProviderAnswer', data: { payment_id: paymentId, answer } }, context);
    await this.outcomes.follow(context, recorded);
    return recorded;
  }

  answerOf(context: RequestContext, paymentId: string, outcome: ChargeOutcome): ProviderAnswer {
    switch (outcome.status) {
      case 'succeeded':
        return { status: 'succeeded', provider_id: outcome.providerPaymentId, captured_at: outcome.capturedAt, ...(outcome.dispute && { dispute: outcome.dispute }) };
      case 'processing':
        return { status: 'processing', provider_id: outcome.providerPaymentId };
      case 'requires_action': {
        const action = outcome.nextAction;
        const next_action = action.type === 'redirect_to_url' ? { type: action.type, url: this.links.sign(context, paymentId, this.clock.now()).url } : action;
        return { status: 'requires_action', provider_id: outcome.providerPaymentId, next_action };
      }
      case 'failed':
        return { status: 'failed', provider_id: outcome.providerPaymentId, last_error: outcome.error };
    }
  }
}
