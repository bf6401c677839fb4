import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { Reaction } from '@tally/runtime';
import { BASIS_FROM_HISTORY } from '../domain/subscription.events';
import { invoiceRequestOf, type InvoiceRequest, type StoredSubscriptionEvent } from './invoice-request';
import { SubscriptionInvoices, type OpenInvoicesBehavior } from './subscription-invoices';

export type SubscriptionInvoicingCommand =
  | { type: 'IssueInvoice'; data: InvoiceRequest }
  | { type: 'IssueRecordedInvoice'; data: { subscription_id: string; revision: number } }
  | { type: 'SettleOpenInvoices'; data: { subscription_id: string; behavior: OpenInvoicesBehavior; keys?: string[] } };

/**
 * Issues each invoice a subscription's event calls for, from the event alone (it carries its
 * invoice's basis); a pause's behaviour reaches the invoices already open, and an incomplete
 * subscription that expires has its first invoice voided, as Stripe voids it. One lane per
 * subscription, so its invoices are issued, voided and written off in the order of its events.
 */
@Injectable()
export class SubscriptionInvoicingReaction implements Reaction<SubscriptionInvoicingCommand> {
  readonly name = 'subscription_invoicing';
  readonly streamPrefixes = ['subscription-'];
  /** An invoice that cannot be built or finalised (a refused line, a tax rule, a discount) is parked, never dropped: the period it bills closed already. */
  readonly parkWhenRefused = ['IssueInvoice', 'IssueRecordedInvoice'];

  constructor(private readonly invoices: SubscriptionInvoices) {}

  commandOf(event: RecordedEvent): { lane: string; command: SubscriptionInvoicingCommand } | undefined {
    const stored = { id: event.id, type: event.type, data: event.data } as StoredSubscriptionEvent;
    const subscription_id = stored.data.subscription_id;
    const command = ((): SubscriptionInvoicingCommand | undefined => {
      if (stored.type === 'SubscriptionPaused') {
        const { behavior } = stored.data;
        return behavior === 'keep_as_draft' ? undefined : { type: 'SettleOpenInvoices', data: { subscription_id, behavior } };
      }
      if (stored.type === 'SubscriptionIncompleteExpired') return { type: 'SettleOpenInvoices', data: { subscription_id, behavior: 'void_invoices', keys: [`period:${stored.data.period_start}`] } };
      const billing = 'billing' in stored.data ? stored.data.billing : undefined;
      if (billing === BASIS_FROM_HISTORY) return { type: 'IssueRecordedInvoice', data: { subscription_id, revision: event.revision } };
      const request = billing && invoiceRequestOf(stored, billing);
      return request && { type: 'IssueInvoice', data: request };
    })();
    return command && { lane: subscription_id, command };
  }

  async dispatch(command: SubscriptionInvoicingCommand, context: RequestContext): Promise<void> {
    switch (command.type) {
      case 'IssueInvoice':
        return this.invoices.issue(context, command.data);
      case 'IssueRecordedInvoice':
        return this.invoices.issueAsRecorded(context, command.data.subscription_id, command.data.revision);
      case 'SettleOpenInvoices':
        return this.invoices.settleOpen(context, command.data.subscription_id, command.data.behavior, command.data.keys);
    }
  }
}
