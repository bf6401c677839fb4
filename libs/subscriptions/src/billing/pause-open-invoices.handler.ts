import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BY_POLICY, INVOICE_LIST, invoiceAggregate, invoiceView, MarkInvoiceUncollectibleCommand, VoidInvoiceCommand, type InvoiceResource } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, commandStep, ScopedReads } from '@tally/runtime';
import { invoiceIdOf } from './subscription-invoice.builder';

/** Sent by the cycle when a subscription is paused voiding its invoices or writing them off: its open invoices follow. */
export class ApplyPauseToOpenInvoicesCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    readonly behavior: 'void_invoices' | 'mark_uncollectible',
    /** The current period's invoice, named rather than listed: it may be too fresh for the read model. */
    readonly currentInvoiceKey: string,
  ) {
    super();
  }
}

/**
 * The spec's pause `behavior` for open invoices: `void_invoices` voids those without payments,
 * `mark_uncollectible` writes them off. Each invoice's own stream decides, so one paid meanwhile
 * is left alone; a payment still under way is canceled, or returned if it succeeds anyway.
 */
@CommandHandler(ApplyPauseToOpenInvoicesCommand)
export class ApplyPauseToOpenInvoicesHandler implements ICommandHandler<ApplyPauseToOpenInvoicesCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly reads: ScopedReads,
    private readonly commands: CommandBus,
  ) {}

  async execute({ context, subscriptionId, behavior, currentInvoiceKey }: ApplyPauseToOpenInvoicesCommand): Promise<void> {
    const ids = new Set([invoiceIdOf({ subscription_id: subscriptionId, key: currentInvoiceKey }), ...(await this.listedOpen(context, subscriptionId))]);
    const cell = this.runtime.cellOf(context);
    for (const id of ids) {
      const { state } = await this.runtime.load(cell, invoiceAggregate, id, context);
      const step = commandStep(context, id);
      if (behavior === 'void_invoices' && state.status === 'open') await this.commands.execute(new VoidInvoiceCommand(step, id, BY_POLICY));
      if (behavior === 'mark_uncollectible' && (state.status === 'open' || state.status === 'partially_paid')) await this.commands.execute(new MarkInvoiceUncollectibleCommand(step, id, BY_POLICY));
    }
  }

  private async listedOpen(context: RequestContext, subscriptionId: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const params: Record<string, unknown> = { subscription_id: subscriptionId, status: 'open,partially_paid', limit: '100', ...(cursor && { cursor }) };
      const page = await this.reads.page<InvoiceResource>(context, invoiceView.collection, params, INVOICE_LIST);
      ids.push(...page.data.map((invoice) => invoice.id));
      cursor = page.next_cursor;
    } while (cursor);
    return ids;
  }
}
