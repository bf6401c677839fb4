import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type IdGenerator } from '@tally/kernel';
import { CommandRuntime, Commands } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { assertPayable, invoiceAggregate, invoiceCollection, InvoiceWallets, type InvoiceFacts, type InvoicePaymentStarted } from '@tally/invoicing';
import type { PaymentReason } from './domain/payment.events';
import { parseReturnUrl } from './domain/return-url';
import { paymentAggregate } from './payment.aggregate';
import type { PaymentResource } from './payment.view';
import { PaymentCharger } from './payment-charger';
import { paymentMethodAggregate } from './payment-method.aggregate';
import type { PaySource } from './dto/payment.dto';
import { emptyWallet, WalletPayments } from './wallet-settlement/wallet-payments';

/** `paymentId`: a derived id, for a payment made once per occasion (a dunning retry). `source: wallet`: from the customer's wallet, not a method. */
export interface PayOptions {
  paymentMethodId?: string;
  source?: PaySource;
  reason: PaymentReason;
  paymentId?: string;
  amount?: string;
  returnUrl?: string;
}

/** Pays an invoice: the pay operation, and dunning's retries. */
@Injectable()
export class InvoicePayer {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly charger: PaymentCharger,
    private readonly walletPayments: WalletPayments,
    private readonly wallets: InvoiceWallets,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * The invoice starts the attempt (refused while another is open, so racing requests charge
   * once), then the payment is created from the attempt with its charge's outcome. Answers the
   * payment as the provider left it: succeeded, processing, waiting for the customer's action, or
   * failed.
   */
  async pay(context: RequestContext, invoiceId: string, options: PayOptions): Promise<PaymentResource> {
    if (options.source === 'wallet') return this.payFromWallet(context, invoiceId, options);
    const returnUrl = options.returnUrl === undefined ? undefined : parseReturnUrl(options.returnUrl);
    const cell = this.runtime.cellOf(context);
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    if (invoice.state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    assertPayable(invoice.state);
    const methodId = await this.methodFor(context, invoice.state, options.paymentMethodId);
    const paymentId = options.paymentId ?? this.ids.next('pay');
    const onClock = onClockOf(context, invoice.clockId);
    const data = { invoice_id: invoiceId, payment_id: paymentId, payment_method_id: methodId, reason: options.reason, ...(options.amount !== undefined && { amount: options.amount }), ...(returnUrl !== undefined && { return_url: returnUrl }) };
    const started = await this.commands.send(invoiceCollection, invoiceId, { type: 'StartInvoicePayment', data }, onClock);
    const attempt = started.appended.find((event) => event.type === 'InvoicePaymentStarted');
    const charged = attempt ? await this.charger.createAndCharge(onClock, attempt.data as InvoicePaymentStarted['data']) : await this.runtime.load(cell, paymentAggregate, paymentId, onClock);
    if (!charged.resource) throw DomainError.conflict('invoice.payment_in_progress', `Payment ${paymentId} of invoice ${invoiceId} is being created`);
    return charged.resource;
  }

  /**
   * Pays from the customer's wallet in the invoice's currency: as much of what is due (or of
   * `amount`) as its balance covers. A customer without a wallet there, or with an empty one,
   * answers 409 before anything is written.
   */
  private async payFromWallet(context: RequestContext, invoiceId: string, options: PayOptions): Promise<PaymentResource> {
    const conflicting = (['paymentMethodId', 'returnUrl'] as const).filter((option) => options[option] !== undefined);
    if (conflicting.length > 0) {
      const errors = conflicting.map((option) => ({ field: option === 'paymentMethodId' ? 'payment_method_id' : 'return_url', code: 'payment.source_conflict', message: 'not with source wallet' }));
      throw DomainError.invalid('payment.source_conflict', 'A payment from the wallet takes neither payment_method_id nor return_url', errors);
    }
    const cell = this.runtime.cellOf(context);
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    if (invoice.state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    assertPayable(invoice.state);
    const { customerId, currency } = invoice.state;
    const wallet = await this.wallets.of(context, customerId, currency);
    if (!wallet) throw DomainError.conflict('payment.no_wallet', `Customer ${customerId} has no wallet in ${currency}: credit one first, or pay with a payment method`);
    if (!wallet.funded) throw emptyWallet(wallet.id);
    const walletId = wallet.id;
    const paymentId = this.ids.next('pay');
    const onClock = onClockOf(context, invoice.clockId);
    const data = { invoice_id: invoiceId, payment_id: paymentId, payment_method_id: walletId, reason: 'manual' as const, source: 'wallet' as const, ...(options.amount !== undefined && { amount: options.amount }) };
    const started = await this.commands.send(invoiceCollection, invoiceId, { type: 'StartInvoicePayment', data }, onClock);
    const attempt = started.appended.find((event) => event.type === 'InvoicePaymentStarted');
    const settled = attempt ? await this.walletPayments.settle(onClock, attempt.data as InvoicePaymentStarted['data']) : await this.runtime.load(cell, paymentAggregate, paymentId, onClock);
    if (settled?.state.status === 'canceled') throw emptyWallet(walletId);
    if (!settled?.resource) throw DomainError.conflict('invoice.payment_in_progress', `Payment ${paymentId} of invoice ${invoiceId} is being created`);
    return settled.resource;
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
