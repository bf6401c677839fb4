import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { invoiceAggregate } from './invoice.aggregate';
import { written, type InvoiceWritten } from './invoice-drafts';

// The two invoice commands other contexts still send as Nest commands (a pause's policy, late usage); the API sends them through Commands.

/** How a void or a write-off treats a payment attempt still open: a request is refused, a policy cancels it (see VoidInvoice). */
export interface OpenPaymentHandling {
  cancelOpenPayment?: boolean;
}

/** A void or write-off by policy (a pause, an expired first payment, dunning's final action). */
export const BY_POLICY: OpenPaymentHandling = { cancelOpenPayment: true };

/** Voids an open invoice without payments; voiding a void invoice does nothing (a process may repeat it). */
export class VoidInvoiceCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly options: OpenPaymentHandling = {},
  ) {
    super();
  }
}

/** Writes off an open (or partly paid) invoice; repeating it does nothing. */
export class MarkInvoiceUncollectibleCommand extends Command<InvoiceWritten> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    readonly options: OpenPaymentHandling = {},
  ) {
    super();
  }
}

@CommandHandler(VoidInvoiceCommand)
export class VoidInvoiceHandler implements ICommandHandler<VoidInvoiceCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, options }: VoidInvoiceCommand): Promise<InvoiceWritten> {
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'VoidInvoice', data: { invoice_id: invoiceId, cancel_open_payment: options.cancelOpenPayment } }, context));
  }
}

@CommandHandler(MarkInvoiceUncollectibleCommand)
export class MarkInvoiceUncollectibleHandler implements ICommandHandler<MarkInvoiceUncollectibleCommand, InvoiceWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, invoiceId, options }: MarkInvoiceUncollectibleCommand): Promise<InvoiceWritten> {
    return written(await this.runtime.execute(invoiceAggregate, invoiceId, { type: 'MarkInvoiceUncollectible', data: { invoice_id: invoiceId, cancel_open_payment: options.cancelOpenPayment } }, context));
  }
}

export const invoiceCommandHandlers = [VoidInvoiceHandler, MarkInvoiceUncollectibleHandler];
