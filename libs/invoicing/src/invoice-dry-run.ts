import { Injectable } from '@nestjs/common';
import type { Environment, RequestContext } from '@tally/cells';
import { streamName, type HistoryEvent } from '@tally/runtime';
import { invoiceAggregate } from './invoice.aggregate';
import { invoiceDecider, type InvoiceCommand, type InvoiceFacts, type InvoiceState } from './domain/invoice.decider';
import type { InvoiceEvent } from './domain/invoice.events';
import { InvoiceFinalizer } from './invoice-finalizer';
import { subscriptionInvoiceCreation, type SubscriptionInvoiceInput } from './subscription-invoices';
import { invoiceView, type InvoiceResource } from './invoice.view';

/**
 * A subscription's invoice as it would be, written nowhere: its creation and its tax decided by
 * the invoice's own decider and folded by its own view, so a preview and the invoice it
 * previews cannot differ in shape or arithmetic (Stripe's upcoming invoice).
 */
@Injectable()
export class InvoiceDryRun {
  constructor(private readonly finalizer: InvoiceFinalizer) {}

  async draft(context: RequestContext, input: SubscriptionInvoiceInput, now: string): Promise<InvoiceResource> {
    const run = new Run(context.environment, now);
    run.apply(subscriptionInvoiceCreation(input, now));
    const { line_ids, totals } = await this.finalizer.totalsOf(context, run.facts(), now, input.tax_customer);
    run.apply({ type: 'RecordInvoiceTax', data: { invoice_id: input.invoice_id, line_ids, totals } });
    return run.resource!;
  }
}

/** Commands decided and folded in memory, one after another. */
class Run {
  state: InvoiceState = invoiceDecider.initialState();
  resource: InvoiceResource | undefined;
  private revision = 0;

  constructor(
    private readonly environment: Environment,
    private readonly now: string,
  ) {}

  apply(command: InvoiceCommand): void {
    for (const event of invoiceDecider.decide(command, this.state)) {
      this.state = invoiceDecider.evolve(this.state, event);
      this.resource = invoiceView.apply(this.resource, this.stored(event));
    }
  }

  facts(): InvoiceFacts {
    if (this.state.status === 'none') throw new Error('The dry run created no invoice');
    return this.state;
  }

  private stored(event: InvoiceEvent): InvoiceEvent & HistoryEvent {
    const revision = this.revision++;
    return { ...event, id: `dry-run-${revision}`, stream: streamName(invoiceAggregate.type, event.data.invoice_id), revision, metadata: { environment: this.environment, occurred_at: this.now } } as InvoiceEvent & HistoryEvent;
  }
}
