import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandRuntime } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceAggregate, isPayable } from '@tally/invoicing';
import { paymentAggregate } from './payment.aggregate';
import { PayInvoiceCommand } from './payment.handlers';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';

/** An invoice was finalised: charge it when it is to be charged automatically and something is due. */
export class AutoChargeInvoiceCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
  ) {
    super();
  }
}

/** A payment ended: its invoice records the payment (or that it could not take it), or the failed or canceled attempt. */
export class RecordPaymentOnInvoiceCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

/**
 * The invoice was voided or written off by a policy: its payment still waiting (pending, or for the
 * customer's action) is canceled. One that succeeds anyway reaches a void invoice and is refunded.
 */
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
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly outcomes: PaymentOutcomeOnInvoice,
  ) {}

  async execute({ context, paymentId }: RecordPaymentOnInvoiceCommand): Promise<void> {
    await this.outcomes.record(context, await this.runtime.load(this.runtime.cellOf(context), paymentAggregate, paymentId, context));
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
