import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandRuntime } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceAggregate, isPayable } from '@tally/invoicing';
import { paymentAggregate } from './payment.aggregate';
import { PayInvoiceCommand } from './payment.handlers';

/** An invoice was finalised: charge it when it is to be charged automatically and something is due. */
export class AutoChargeInvoiceCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
  ) {
    super();
  }
}

/** A payment ended: its invoice records the payment, or the failed or canceled attempt. */
export class RecordPaymentOnInvoiceCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

/** The invoice was voided or written off: its payment still waiting (pending, or for the customer's action) is canceled. */
export class CancelOpenPaymentCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
  ) {
    super();
  }
}

@CommandHandler(AutoChargeInvoiceCommand)
export class AutoChargeInvoiceHandler implements ICommandHandler<AutoChargeInvoiceCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: CommandBus,
  ) {}

  async execute({ context, invoiceId }: AutoChargeInvoiceCommand): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (state.status !== 'open' || !state.autoCharge || !isPayable(state)) return;
    await this.commands.execute(new PayInvoiceCommand(context, invoiceId, { reason: 'automatic' }));
  }
}

@CommandHandler(RecordPaymentOnInvoiceCommand)
export class RecordPaymentOnInvoiceHandler implements ICommandHandler<RecordPaymentOnInvoiceCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, paymentId }: RecordPaymentOnInvoiceCommand): Promise<void> {
    const { state, resource } = await this.runtime.load(this.runtime.cellOf(context), paymentAggregate, paymentId, context);
    if (state.status === 'none' || !resource) return;
    const invoice_id = state.invoiceId;
    // Charged back at once (the provider reported the dispute with the charge), the money was still taken first.
    if (state.status === 'succeeded' || state.status === 'charged_back') {
      await this.runtime.execute(invoiceAggregate, invoice_id, { type: 'ApplyInvoicePayment', data: { invoice_id, payment_id: paymentId, amount: state.amount } }, context);
    } else if (state.status === 'failed' || state.status === 'canceled') {
      const outcome = state.status;
      await this.runtime.execute(invoiceAggregate, invoice_id, { type: 'CloseInvoicePayment', data: { invoice_id, payment_id: paymentId, outcome, last_error: resource.last_error } }, context);
    }
  }
}

@CommandHandler(CancelOpenPaymentCommand)
export class CancelOpenPaymentHandler implements ICommandHandler<CancelOpenPaymentCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId }: CancelOpenPaymentCommand): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    const paymentId = invoice.state.status === 'none' ? null : invoice.state.openPayment;
    if (!paymentId) return;
    const payment = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (payment.state.status !== 'pending' && payment.state.status !== 'requires_action') return;
    await this.runtime.execute(paymentAggregate, paymentId, { type: 'CancelPayment', data: { payment_id: paymentId } }, context);
  }
}

export const paymentOnInvoiceHandlers = [AutoChargeInvoiceHandler, RecordPaymentOnInvoiceHandler, CancelOpenPaymentHandler];
