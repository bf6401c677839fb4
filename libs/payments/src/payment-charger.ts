import { Inject, Injectable } from '@nestjs/common';
import { Clocks, CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { CLOCK, type RequestContext } from '@tally/cells';
import type { Clock, DomainError } from '@tally/kernel';
import { DEFAULT_DUNNING, type InvoicePaymentStarted } from '@tally/invoicing';
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
 * Creates a payment from its invoice's attempt, charged through the provider, and records the
 * provider's later answers. The creation may run twice (the request that started the attempt,
 * then the payment flow reaction): the payment stream exists once, and the provider's idempotency
 * key (`charge:<payment id>`) makes a second charge answer the first one's outcome.
 */
@Injectable()
export class PaymentCharger {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    private readonly links: PaymentActionLinks,
    private readonly outcomes: PaymentOutcomeOnInvoice,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    /** Links expire by the system clock, whatever clock the payment lives on. */
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The payment of an attempt, created with the outcome of its charge in one append: the provider
   * is asked first, under the key `charge:<payment id>`, so asking again (a retry after a crash
   * before the append) answers the first charge's outcome without charging twice. A payment that
   * exists already is answered as it is (or, created before it was charged in the same append and
   * still pending, charged now).
   */
  async createAndCharge(context: RequestContext, attempt: InvoicePaymentStarted['data']): Promise<Outcome> {
    const cell = this.runtime.cellOf(context);
    const existing = await this.runtime.load(cell, paymentAggregate, attempt.payment_id, context);
    if (existing.state.status !== 'none' && existing.state.status !== 'pending') return { ...existing, appended: [] };
    const method = attachedMethod((await this.runtime.load(cell, paymentMethodAggregate, attempt.payment_method_id, context)).state, attempt.payment_method_id);
    const { invoice_id, payment_id, customer_id, subscription_id, payment_method_id, amount, currency, reason, return_url } = attempt;
    // Attempts started before the invoice carried its terms: a subscription's invoice is dunned on the default ones.
    const dunning = attempt.dunning !== undefined ? attempt.dunning : subscription_id ? DEFAULT_DUNNING : null;
    const now = (await this.clocks.now(cell, existing.clockId ?? context.clockId)).toISOString();
    const charged = await this.provider.charge({ providerRef: method.providerRef, amount, currency, now, idempotencyKey: `charge:${payment_id}` });
    const answer = this.answerOf(context, payment_id, charged);
    const data = { payment_id, invoice_id, customer_id, subscription_id, payment_method_id, provider: this.provider.name, provider_ref: method.providerRef, amount, currency, reason, dunning, return_url: return_url ?? null, answer };
    // Read empty just above: its first append is checked by its expected revision, so it is not read again.
    const created = await this.commands.send(paymentAggregate, payment_id, { type: 'CreatePayment', data }, context, { newStream: existing.revision < 0 });
    await this.outcomes.follow(context, created);
    return created;
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
    const recorded = await this.commands.send(paymentAggregate, paymentId, { type: 'RecordProviderAnswer', data: { payment_id: paymentId, answer } }, context);
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
