import { Inject, Injectable } from '@nestjs/common';
import { DomainError, looksLikeCardNumber, type Address, type AddressPatch, type IdGenerator, type Metadata } from '@tally/kernel';
import { Clocks, CommandRuntime, Commands, reactionCommandId } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate, CustomerPaymentMethods, CustomerSubscriptions, subscriptionBillingWith, type CustomerState } from '@tally/customers';
import { attachedMethod, confirmableMethod, verifiableMethod, type PaymentMethodState } from './domain/payment-method.decider';
import type { PaymentMethodType } from './domain/payment-method.events';
import { cardExpiry } from './domain/card-expiry';
import { paymentMethodAggregate } from './payment-method.aggregate';
import { ATTACHMENT_REACTION } from './payment-method-attachment.reaction';
import type { PaymentMethodResource } from './payment-method.view';
import { PAYMENT_PROVIDER, type PaymentProvider, type VerifyOutcome } from './provider/payment-provider.port';

/** A payment method as a command left it, its `is_default` read from its customer, with the revision for its ETag. */
export interface PaymentMethodWritten {
  method: PaymentMethodResource;
  revision: number;
}

/** A payment method's steps, each of which reaches beyond its own stream: the provider, its customer's default, the customer's subscriptions. */
@Injectable()
export class PaymentMethods {
  constructor(
    private readonly commands: Commands,
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly customerMethods: CustomerPaymentMethods,
    private readonly customerSubscriptions: CustomerSubscriptions,
  ) {}

  /**
   * The provider tokenised the method; it is attached to its own stream, then recorded on the
   * customer under the command id the attachment reaction would use, so that a crash between the
   * two appends is completed by the reaction and a finished attach is not repeated by it.
   */
  async attach(
    context: RequestContext,
    customerId: string,
    input: { type: PaymentMethodType; token: string; set_as_default: boolean; billing_address: Address | null; metadata: Metadata },
  ): Promise<PaymentMethodWritten> {
    if (looksLikeCardNumber(input.token)) throw cardNumberRefused();
    const cell = this.runtime.cellOf(context);
    const customer = await this.runtime.load(cell, customerAggregate, customerId, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(customerId);
    const onClock = onClockOf(context, customer.clockId);
    const now = (await this.clocks.now(cell, customer.clockId)).toISOString();

    const id = this.ids.next('pm');
    const tokenised = await this.provider.attach({ type: input.type, token: input.token, now, idempotencyKey: `attach:${id}` });
    if (!tokenised.ok) throw tokenRefused(tokenised.code, tokenised.message);
    const data = {
      payment_method_id: id,
      customer_id: customerId,
      type: input.type,
      provider: this.provider.name,
      provider_ref: tokenised.providerRef,
      card: tokenised.card,
      bank_account: tokenised.bank_account,
      wallet: tokenised.wallet,
      verified: tokenised.verified,
      expires_at: tokenised.card && cardExpiry(tokenised.card),
      billing_address: input.billing_address,
      metadata: input.metadata,
      set_as_default: input.set_as_default,
    };
    const attached = await this.commands.send(paymentMethodAggregate, id, { type: 'AttachPaymentMethod', data }, onClock, { newStream: true });
    const recorded = await this.customerMethods.recordAttached(
      { ...onClock, commandId: reactionCommandId(ATTACHMENT_REACTION, attached.appended[0].id) },
      { customer_id: customerId, payment_method_id: id, set_as_default: input.set_as_default },
    );
    return withDefault(attached, recorded);
  }

  /** The method's own fields change on its stream; `is_default` is the customer's to change. */
  async update(
    context: RequestContext,
    paymentMethodId: string,
    patch: { billing_address?: AddressPatch | null; metadata?: Metadata; is_default?: boolean },
    expectedRevision: number | undefined,
  ): Promise<PaymentMethodWritten> {
    const { is_default, ...fields } = patch;
    const updated = await this.commands.send(paymentMethodAggregate, paymentMethodId, { type: 'UpdatePaymentMethod', data: { payment_method_id: paymentMethodId, ...fields } }, context, { expectedRevision });
    const method = attachedMethod(updated.state, paymentMethodId);
    const customer = await this.customerOf(context, method.customerId);
    if (is_default === undefined || customer.status !== 'active' || (customer.defaultPaymentMethodId === paymentMethodId) === is_default) {
      return withDefault(updated, customer);
    }
    const changed = await this.customerMethods.setDefault(context, method.customerId, is_default ? paymentMethodId : null);
    return withDefault(updated, changed);
  }

  /**
   * Cards get a zero-amount authorisation and its reversal, bank accounts micro-deposits (then the
   * customer confirms their amounts, `microDeposits`), wallets were verified when attached. The
   * provider's idempotency key names the method and the step, so a retried verification asks it once.
   */
  async verify(context: RequestContext, paymentMethodId: string, microDeposits?: [string, string]): Promise<PaymentMethodWritten> {
    const loaded = await this.runtime.load(this.runtime.cellOf(context), paymentMethodAggregate, paymentMethodId, context);
    const method = microDeposits ? confirmableMethod(loaded.state, paymentMethodId) : verifiableMethod(loaded.state, paymentMethodId);
    if (method.verification === 'verified' || (!microDeposits && method.verification === 'verifying')) return withDefault(loaded, await this.customerOf(context, method.customerId));
    const outcome: VerifyOutcome = microDeposits
      ? await this.provider.confirmMicroDeposits({ providerRef: method.providerRef, amounts: microDeposits, idempotencyKey: `confirm:${paymentMethodId}:${microDeposits.join(':')}` })
      : await this.provider.verify({ providerRef: method.providerRef, type: method.type, idempotencyKey: `verify:${paymentMethodId}` });
    if (outcome.status === 'failed') throw verificationFailed(outcome.code, outcome.message);
    const recorded = await this.commands.send(paymentMethodAggregate, paymentMethodId, { type: 'RecordVerification', data: { payment_method_id: paymentMethodId, outcome: outcome.status } }, context);
    return withDefault(recorded, await this.customerOf(context, method.customerId));
  }

  /**
   * Refused while a subscription that may still bill would charge the method: as its own, or as
   * the customer's default when it names none. The subscriptions come from the customer's
   * subscription index in the event store, which follows the subscriptions' events by reaction, so
   * a subscription created or changed in the last moments may slip through; its payments then fall
   * back to the customer's default, as those of a subscription without a method do, or find no method.
   */
  async detach(context: RequestContext, paymentMethodId: string): Promise<PaymentMethodWritten> {
    const loaded = await this.runtime.load(this.runtime.cellOf(context), paymentMethodAggregate, paymentMethodId, context);
    if (loaded.state.status === 'none') throw paymentMethodAggregate.notFound(paymentMethodId);
    const customerId = loaded.state.customerId;
    if (loaded.state.status !== 'detached') {
      const owner = await this.customerOf(context, customerId);
      const isDefault = owner.status === 'active' && owner.defaultPaymentMethodId === paymentMethodId;
      const subscriptions = await this.customerSubscriptions.of(context, customerId);
      const own = subscriptionBillingWith(subscriptions, paymentMethodId);
      if (own) throw inUse(paymentMethodId, own, false);
      const inheriting = isDefault ? subscriptionBillingWith(subscriptions, null) : undefined;
      if (inheriting) throw inUse(paymentMethodId, inheriting, true);
    }
    const detached = await this.commands.send(paymentMethodAggregate, paymentMethodId, { type: 'DetachPaymentMethod', data: { payment_method_id: paymentMethodId } }, context);
    const event = detached.appended[0];
    const customer = event
      ? await this.customerMethods.recordDetached({ ...context, commandId: reactionCommandId(ATTACHMENT_REACTION, event.id) }, { customer_id: customerId, payment_method_id: paymentMethodId })
      : await this.customerOf(context, customerId);
    return withDefault(detached, customer);
  }

  private async customerOf(context: RequestContext, customerId: string): Promise<CustomerState> {
    return (await this.runtime.load(this.runtime.cellOf(context), customerAggregate, customerId, context)).state;
  }
}

function withDefault(outcome: { state: PaymentMethodState; resource?: PaymentMethodResource; revision: number }, customer: CustomerState): PaymentMethodWritten {
  const method = outcome.resource!;
  const isDefault = customer.status === 'active' && method.status !== 'detached' && customer.defaultPaymentMethodId === method.id;
  return { method: { ...method, is_default: isDefault }, revision: outcome.revision };
}

/** The detail never repeats the token: it may be a card number, which is never stored or logged. */
const cardNumberRefused = () =>
  DomainError.invalid('payment_method.card_number_refused', 'The token looks like a card number. Tokenise the card with the provider first; card numbers are never accepted.', [
    { field: 'token', code: 'payment_method.card_number_refused', message: 'a provider token, not a card number' },
  ]);

const tokenRefused = (code: string, message: string) =>
  DomainError.unprocessable(`payment_method.${code === 'token_type_mismatch' ? 'token_type_mismatch' : 'token_invalid'}`, message, [
    { field: 'token', code: `payment_method.${code === 'token_type_mismatch' ? 'token_type_mismatch' : 'token_invalid'}`, message },
  ]);

const verificationFailed = (code: string, message: string) =>
  DomainError.unprocessable(code === 'microdeposit_amounts_mismatch' ? 'payment_method.microdeposits_mismatch' : 'payment_method.verification_failed', message);

const inUse = (id: string, subscriptionId: string, inherited: boolean) =>
  DomainError.conflict(
    'payment_method.in_use',
    inherited
      ? `Payment method ${id} is the customer’s default, which subscription ${subscriptionId} bills; give the customer another default or the subscription a method of its own first`
      : `Payment method ${id} is the payment method of subscription ${subscriptionId}; give the subscription another method first`,
  );
