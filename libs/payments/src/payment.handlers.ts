import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { derivedId, DomainError, type IdGenerator } from '@tally/kernel';
import { CommandRuntime } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { assertPayable, invoiceAggregate, type InvoiceFacts, type InvoicePaymentStarted } from '@tally/invoicing';
import type { PaymentReason } from './domain/payment.events';
import { parseReturnUrl } from './domain/return-url';
import type { PaymentCommand } from './domain/payment.decider';
import { paymentAggregate } from './payment.aggregate';
import type { PaymentResource } from './payment.view';
import { PaymentCharger } from './payment-charger';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { paymentMethodAggregate } from './payment-method.aggregate';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';

export class PayInvoiceCommand extends Command<PaymentResource> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    /** `paymentId`: a derived id, for a payment made once per occasion (a dunning retry). */
    readonly options: { paymentMethodId?: string; reason: PaymentReason; paymentId?: string; amount?: string; returnUrl?: string },
  ) {
    super();
  }
}

export class CancelPaymentCommand extends Command<PaymentResource> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

/** The customer finished (or failed) the action a payment waited for: the hosted page, or the sandbox's test helper. */
export class CompletePaymentActionCommand extends Command<PaymentResource> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
    readonly outcome: 'succeeded' | 'failed',
  ) {
    super();
  }
}

/** A processing bank payment settled (the sandbox's test helper stands for the bank). */
export class SettlePaymentCommand extends Command<PaymentResource> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

/** The sandbox's stand-in for a card network: a dispute opened, or decided. */
export class DisputePaymentCommand extends Command<PaymentResource> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
    readonly step: { open: string } | { decide: 'won' | 'lost' },
  ) {
    super();
  }
}

@CommandHandler(PayInvoiceCommand)
export class PayInvoiceHandler implements ICommandHandler<PayInvoiceCommand, PaymentResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly charger: PaymentCharger,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * The invoice starts the attempt (refused while another is open, so racing requests charge
   * once), then the payment is created from the attempt with its charge's outcome. Answers the
   * payment as the provider left it: succeeded, processing, waiting for the customer's action, or
   * failed.
   */
  async execute({ context, invoiceId, options }: PayInvoiceCommand): Promise<PaymentResource> {
    const returnUrl = options.returnUrl === undefined ? undefined : parseReturnUrl(options.returnUrl);
    const cell = this.runtime.cellOf(context);
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    if (invoice.state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    assertPayable(invoice.state);
    const methodId = await this.methodFor(context, invoice.state, options.paymentMethodId);
    const paymentId = options.paymentId ?? this.ids.next('pay');
    const onClock = onClockOf(context, invoice.clockId);
    const started = await this.runtime.execute(invoiceAggregate, invoiceId, {
        type: 'StartInvoicePayment',
        data: { invoice_id: invoiceId, payment_id: paymentId, payment_method_id: methodId, reason: options.reason, ...(options.amount !== undefined && { amount: options.amount }), ...(returnUrl !== undefined && { return_url: returnUrl }) },
      }, onClock);
    const attempt = started.appended.find((event) => event.type === 'InvoicePaymentStarted');
    const charged = attempt ? await this.charger.createAndCharge(onClock, attempt.data as InvoicePaymentStarted['data']) : await this.runtime.load(cell, paymentAggregate, paymentId, onClock);
    if (!charged.resource) throw DomainError.conflict('invoice.payment_in_progress', `Payment ${paymentId} of invoice ${invoiceId} is being created`);
    return charged.resource;
  }

  /** The method named, else the invoice's (its subscription's or customer's at its issue, or the last retried), else the customer's default. */
  private async methodFor(context: RequestContext, invoice: InvoiceFacts, named: string | undefined): Promise<string> {
    const cell = this.runtime.cellOf(context);
    if (named) {
      await assertUsable(this.runtime, context, named, invoice.customerId);
      return named;
    }
    if (invoice.paymentMethodId) return invoice.paymentMethodId;
    const customer = await this.runtime.load(cell, customerAggregate, invoice.customerId, context);
    const fallback = customer.state.status === 'active' ? customer.state.defaultPaymentMethodId : null;
    if (!fallback) {
      throw DomainError.conflict('payment.no_payment_method', `Invoice ${invoice.id} names no payment method: give the customer a default payment method, or pass payment_method_id`);
    }
    return fallback;
  }
}

/** A named method must be the invoice customer's, attached, not expired, and (a bank account) verified. */
async function assertUsable(runtime: CommandRuntime, context: RequestContext, methodId: string, customerId: string): Promise<void> {
  const { state } = await runtime.load(runtime.cellOf(context), paymentMethodAggregate, methodId, context);
  const why =
    state.status === 'none' || state.customerId !== customerId
      ? 'is not a payment method of the invoice’s customer'
      : state.status !== 'active'
        ? `is ${state.status}`
        : state.type === 'bank_account' && state.verification !== 'verified'
          ? 'is a bank account that is not verified yet'
          : undefined;
  if (!why) return;
  throw DomainError.unprocessable('payment.payment_method_unusable', `Payment method ${methodId} ${why}`, [
    { field: 'payment_method_id', code: 'payment.payment_method_unusable', message: why },
  ]);
}

@CommandHandler(CancelPaymentCommand)
export class CancelPaymentHandler implements ICommandHandler<CancelPaymentCommand, PaymentResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly outcomes: PaymentOutcomeOnInvoice,
  ) {}

  async execute({ context, paymentId }: CancelPaymentCommand): Promise<PaymentResource> {
    const canceled = await this.runtime.execute(paymentAggregate, paymentId, { type: 'CancelPayment', data: { payment_id: paymentId } }, context);
    await this.outcomes.follow(context, canceled);
    return canceled.resource!;
  }
}

@CommandHandler(CompletePaymentActionCommand)
export class CompletePaymentActionHandler implements ICommandHandler<CompletePaymentActionCommand, PaymentResource> {
  constructor(
    private readonly charger: PaymentCharger,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  execute({ context, paymentId, outcome }: CompletePaymentActionCommand): Promise<PaymentResource> {
    const waiting = (status: string) => DomainError.conflict('payment.no_action', `Payment ${paymentId} is ${status}; it waits for no action of the customer`);
    return this.charger.followUp(context, paymentId, 'requires_action', waiting, (providerPaymentId, now) =>
      this.provider.completeAction({ providerPaymentId, outcome, now, idempotencyKey: `action:${paymentId}` }),
    );
  }
}

@CommandHandler(SettlePaymentCommand)
export class SettlePaymentHandler implements ICommandHandler<SettlePaymentCommand, PaymentResource> {
  constructor(
    private readonly charger: PaymentCharger,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  execute({ context, paymentId }: SettlePaymentCommand): Promise<PaymentResource> {
    const notProcessing = (status: string) => DomainError.conflict('payment.not_processing', `Payment ${paymentId} is ${status}; only processing payments settle`);
    return this.charger.followUp(context, paymentId, 'processing', notProcessing, (providerPaymentId, now) =>
      this.provider.settle({ providerPaymentId, now, idempotencyKey: `settle:${paymentId}` }),
    );
  }
}

@CommandHandler(DisputePaymentCommand)
export class DisputePaymentHandler implements ICommandHandler<DisputePaymentCommand, PaymentResource> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, paymentId, step }: DisputePaymentCommand): Promise<PaymentResource> {
    const outcome = await this.runtime.execute(
      paymentAggregate,
      paymentId,
      (at): PaymentCommand =>
        'open' in step ? { type: 'OpenDispute', data: { payment_id: paymentId, reason: step.open, at } } : { type: 'DecideDispute', data: { payment_id: paymentId, outcome: step.decide, at } },
      context,
    );
    return outcome.resource!;
  }
}

export const paymentCommandHandlers = [
  DisputePaymentHandler,
  PayInvoiceHandler,
  CancelPaymentHandler,
  CompletePaymentActionHandler,
  SettlePaymentHandler,
];
