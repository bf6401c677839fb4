import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { derivedId } from '@tally/kernel';
import { IssueSubscriptionInvoiceCommand, MarkInvoiceUncollectibleCommand, VoidInvoiceCommand, type InvoiceWritten } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { subscriptionAggregate } from '../subscription.aggregate';
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
    private readonly runtime: CommandRuntime,
    private readonly builder: SubscriptionInvoiceBuilder,
    private readonly commands: CommandBus,
  ) {}

  async execute({ context, request }: InvoiceSubscriptionCommand): Promise<void> {
    const { clockId } = await this.runtime.load(this.runtime.cellOf(context), subscriptionAggregate, request.subscription_id, context);
    const onClock = clockId ? { ...context, clockId } : context;
    const draft = await this.builder.build(onClock, request);
    if (draft.lines.length === 0) return;
    const { invoice }: InvoiceWritten = await this.commands.execute(new IssueSubscriptionInvoiceCommand(onClock, issueInput(draft, request)));
    if (invoice.status !== 'open') return;
    // Further commands on the invoice's stream, each with a command id of its own (a stream applies an id once).
    if (request.collection === 'void_invoices') await this.commands.execute(new VoidInvoiceCommand(step(onClock, 'void'), invoice.id));
    if (request.collection === 'mark_uncollectible') await this.commands.execute(new MarkInvoiceUncollectibleCommand(step(onClock, 'uncollectible'), invoice.id));
  }
}

const step = (context: RequestContext, name: string): RequestContext => (context.commandId ? { ...context, commandId: derivedId('cmd', [context.commandId, name]) } : context);
