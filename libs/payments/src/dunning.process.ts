import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ProcessManager } from '@tally/runtime';
import { dunningDecider, type DunningCommand, type DunningInput, type DunningState } from './domain/dunning.decider';
import type { PaymentFailed } from './domain/payment.events';
import { InvoiceDunning } from './dunning.handlers';

const SETTLED = new Set(['InvoicePaid', 'InvoiceVoided', 'InvoiceMarkedUncollectible']);

/** Dunning: retries of a subscription invoice's failed payment, on its plan's schedule (see dunningDecider). */
@Injectable()
export class DunningProcess implements ProcessManager<DunningState, DunningInput, DunningCommand> {
  readonly name = 'dunning';
  readonly streamPrefixes = ['invoice-', 'payment-'];
  readonly decider = dunningDecider;

  constructor(private readonly dunning: InvoiceDunning) {}

  /** A dunning starts with a subscription invoice's first failed payment; a settled invoice without one is not followed. */
  readonly startsOn = ['PaymentFailed'];

  route(event: RecordedEvent): { processId: string; input: DunningInput } | undefined {
    if (event.type === 'PaymentFailed') {
      const { invoice_id, subscription_id, dunning, last_error } = event.data as PaymentFailed['data'];
      if (!subscription_id || !dunning) return undefined;
      return { processId: invoice_id, input: { id: event.id, type: 'PaymentFailed', data: { invoice_id, subscription_id, dunning, last_error, occurred_at: event.metadata.occurred_at } } };
    }
    if (SETTLED.has(event.type)) {
      const { invoice_id } = event.data as { invoice_id: string };
      return { processId: invoice_id, input: { id: event.id, type: 'InvoiceSettled', data: { invoice_id } } };
    }
    return undefined;
  }

  async dispatch(command: DunningCommand, context: RequestContext): Promise<void> {
    if (command.type === 'RetryInvoicePayment') {
      await this.dunning.retry(context, command.data.invoice_id, `retry:${command.data.attempt}`);
      return;
    }
    await this.dunning.exhaust(context, command.data);
  }
}
