import { Inject, Injectable } from '@nestjs/common';
import { Clocks, CommandRuntime, Commands, type CommandOutcome, type Loaded } from '@tally/runtime';
import { CLOCK, type RequestContext } from '@tally/cells';
import type { Clock, DomainError } from '@tally/kernel';
import { DEFAULT_DUNNING, type InvoicePaymentStarted } from '@tally/invoicing';
import type { CreatePayment, PaymentState, ProviderAnswer } from './domain/payment.decider';
import { attachedMethod, type PaymentMethodState } from './domain/payment-method.decider';
import { paymentAggregate } from './payment.aggregate';
import type { PaymentResource } from './payment.view';
import { PaymentActionLinks } from './payment-action-links';
import { paymentMethodAggregate } from './payment-method.aggregate';
import type { PaymentMethodResource } from './payment-method.view';
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
    const [outcome] = await this.createAndChargeEach([{ context, attempt }]);
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  }

  /**
   * A page of attempts (each payment once), each settled as `createAndCharge` settles it: the
   * payments' streams and their methods each read in one batched read, the charges asked one by
   * one, the creations appended together.
   */
  async createAndChargeEach(items: readonly { context: RequestContext; attempt: InvoicePaymentStarted['data'] }[]): Promise<PromiseSettledResult<Outcome>[]> {
    const existing = await this.runtime.loadEach(paymentAggregate, items.map(({ context, attempt }) => ({ id: attempt.payment_id, context })));
    const methodIds = new Map(items.map(({ context, attempt }) => [attempt.payment_method_id, { id: attempt.payment_method_id, context }]));
    const methodLoads = await this.runtime.loadEach(paymentMethodAggregate, [...methodIds.values()]);
    const methods = new Map([...methodIds.keys()].map((id, i) => [id, methodLoads[i]]));
    const charged = await Promise.allSettled(items.map(({ context, attempt }, i) => this.charged(context, attempt, existing[i], methods.get(attempt.payment_method_id)!)));
    const toCreate = charged.flatMap((outcome, i) => (outcome.status === 'fulfilled' && 'command' in outcome.value ? [{ i, command: outcome.value.command }] : []));
    const created = await this.runtime.executeEach(paymentAggregate, toCreate.map(({ i, command }) => ({ id: items[i].attempt.payment_id, command, context: items[i].context })));
    const createdOf = new Map(toCreate.map(({ i }, k) => [i, created[k]]));
    return Promise.allSettled(
      charged.map(async (outcome, i) => {
        if (outcome.status === 'rejected') throw outcome.reason;
        if ('existing' in outcome.value) return outcome.value.existing;
        const creation = createdOf.get(i)!;
        if (creation.status === 'rejected') throw creation.reason;
        await this.outcomes.follow(items[i].context, creation.value);
        return creation.value;
      }),
    );
  }

  /** The payment as it is when it exists already (and is not pending), or its creation with its charge's outcome. */
  private async charged(
    context: RequestContext,
    attempt: InvoicePaymentStarted['data'],
    load: PromiseSettledResult<Loaded<PaymentState, PaymentResource>>,
    methodLoad: PromiseSettledResult<Loaded<PaymentMethodState, PaymentMethodResource>>,
  ): Promise<{ existing: Outcome } | { command: CreatePayment }> {
    if (load.status === 'rejected') throw load.reason;
    const existing = load.value;
    if (existing.state.status !== 'none' && existing.state.status !== 'pending') return { existing: { ...existing, appended: [] } };
    if (methodLoad.status === 'rejected') throw methodLoad.reason;
    const method = attachedMethod(methodLoad.value.state, attempt.payment_method_id);
    const cell = this.runtime.cellOf(context);
    const { invoice_id, payment_id, customer_id, subscription_id, payment_method_id, amount, currency, reason, return_url } = attempt;
    // Attempts started before the invoice carried its terms: a subscription's invoice is dunned on the default ones.
    const dunning = attempt.dunning !== undefined ? attempt.dunning : subscription_id ? DEFAULT_DUNNING : null;
    const now = (await this.clocks.now(cell, existing.clockId ?? context.clockId)).toISOString();
    const charged = await this.provider.charge({ providerRef: method.providerRef, amount, currency, now, idempotencyKey: `charge:${payment_id}` });
    const answer = this.answerOf(context, payment_id, charged);
    const data = { payment_id, invoice_id, customer_id, subscription_id, payment_method_id, provider: this.provider.name, provider_ref: method.providerRef, amount, currency, reason, dunning, return_url: return_url ?? null, answer };
    return { command: { type: 'CreatePayment', data } };
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
