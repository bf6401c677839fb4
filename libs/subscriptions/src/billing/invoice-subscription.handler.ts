import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BY_POLICY, MarkInvoiceUncollectibleCommand, SubscriptionInvoices, VoidInvoiceCommand } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { commandStep } from '@tally/runtime';
import type { InvoiceRequest } from './subscription-cycle.decider';
import { issueInput, SubscriptionInvoiceBuilder } from './subscription-invoice.builder';

/** Sent by the subscription's cycle: issue one of its invoices, and collect it as the subscription's pause says. */
export class InvoiceSubscriptionCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly request: InvoiceRequest,
  ) {
    super();
  }
}

/**
 * Prices the invoice, has the invoice aggregate create and (unless kept as a draft) finalise it
 * on the subscription's clock, then applies a pause's behaviour. An invoice without lines (a
 * cancellation with nothing to credit and no usage) is not issued.
 */
@CommandHandler(InvoiceSubscriptionCommand)
export class InvoiceSubscriptionHandler implements ICommandHandler<InvoiceSubscriptionCommand, void> {
  constructor(
    private readonly builder: SubscriptionInvoiceBuilder,
    private readonly invoices: SubscriptionInvoices,
    private readonly commands: CommandBus,
  ) {}

  async execute({ context, request }: InvoiceSubscriptionCommand): Promise<void> {
    // The dispatcher gives the context the clock of the cycle's input, the subscription's own: the invoice lives on it too.
    const draft = await this.builder.build(context, request);
    if (draft.lines.length === 0) return;
    const { invoice } = await this.invoices.issue(context, issueInput(draft, request));
    if (invoice.status !== 'open') return;
    // Further commands on the invoice's stream, each with a command id of its own (a stream applies an id once).
    // By policy: a payment someone started meanwhile is canceled, or returned if it succeeds anyway.
    if (request.collection === 'void_invoices') await this.commands.execute(new VoidInvoiceCommand(commandStep(context, 'void'), invoice.id, BY_POLICY));
    if (request.collection === 'mark_uncollectible') await this.commands.execute(new MarkInvoiceUncollectibleCommand(commandStep(context, 'uncollectible'), invoice.id, BY_POLICY));
  }
}
