import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { derivedId } from '@tally/kernel';
import { CommandRuntime, Commands, ScopedReads } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { BY_POLICY, invoiceAggregate, isPayable, MarkInvoiceUncollectibleCommand } from '@tally/invoicing';
import { cancelWithoutFinalInvoice, subscriptionAggregate } from '@tally/subscriptions';
import type { DunningCommand } from './domain/dunning.decider';
import { PayInvoiceCommand } from './payment.handlers';
import { paymentView, type PaymentResource } from './payment.view';

/** Pays a subscription invoice again, once per `occasion` (a dunning retry, a new default method): its payment id derives from both. */
export class RetryInvoicePaymentCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly occasion: string,
  ) {
    super();
  }
}

export class ApplyDunningFinalActionCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly data: Extract<DunningCommand, { type: 'ApplyDunningFinalAction' }>['data'],
  ) {
    super();
  }
}

/** The customer has a new default method: retry each of its subscription invoices whose payment failed, at once. */
export class RetryFailedInvoicesOfCustomerCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly occasion: string,
  ) {
    super();
  }
}

@CommandHandler(RetryInvoicePaymentCommand)
export class RetryInvoicePaymentHandler implements ICommandHandler<RetryInvoicePaymentCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: CommandBus,
  ) {}

  /** Only while something is due and no other attempt is under way; the method is found as for any payment. */
  async execute({ context, invoiceId, occasion }: RetryInvoicePaymentCommand): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context);
    if (state.status === 'none' || state.openPayment || !isPayable(state)) return;
    await this.commands.execute(new PayInvoiceCommand(context, invoiceId, { reason: 'retry', paymentId: derivedId('pay', [invoiceId, occasion]) }));
  }
}

@CommandHandler(ApplyDunningFinalActionCommand)
export class ApplyDunningFinalActionHandler implements ICommandHandler<ApplyDunningFinalActionCommand, void> {
  constructor(
    private readonly commands: CommandBus,
    private readonly aggregates: Commands,
  ) {}

  async execute({ context, data }: ApplyDunningFinalActionCommand): Promise<void> {
    if (data.action === 'mark_uncollectible') {
      // The last failure's attempt may not be closed on the invoice yet, and a retry may be under way: the policy cancels (or returns) it.
      await this.commands.execute(new MarkInvoiceUncollectibleCommand(context, data.invoice_id, BY_POLICY));
      return;
    }
    await this.aggregates.send(subscriptionAggregate, data.subscription_id, cancelWithoutFinalInvoice(data.subscription_id, 'payment_failed'), context);
  }
}

@CommandHandler(RetryFailedInvoicesOfCustomerCommand)
export class RetryFailedInvoicesOfCustomerHandler implements ICommandHandler<RetryFailedInvoicesOfCustomerCommand, void> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly commands: CommandBus,
  ) {}

  /** The invoices come from the customer's failed payments in the read model; an invoice paid meanwhile is skipped by the retry itself. */
  async execute({ context, customerId, occasion }: RetryFailedInvoicesOfCustomerCommand): Promise<void> {
    const failed = await this.reads.list<PaymentResource>(context, paymentView.collection, {
      where: [
        { field: 'customer_id', op: 'eq', value: customerId },
        { field: 'status', op: 'eq', value: 'failed' },
      ],
      limit: 100,
    });
    const invoices = new Set(failed.items.filter((payment) => payment.subscription_id !== null).map((payment) => payment.invoice_id));
    for (const invoiceId of invoices) await this.commands.execute(new RetryInvoicePaymentCommand(context, invoiceId, occasion));
  }
}

export const dunningHandlers = [RetryInvoicePaymentHandler, ApplyDunningFinalActionHandler, RetryFailedInvoicesOfCustomerHandler];
