import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { dispatchPageOf, type Reaction, type ReactionCall } from '@tally/runtime';
import { BASIS_FROM_HISTORY } from '../domain/subscription.events';
import { invoiceRequestOf, type InvoiceRequest, type StoredSubscriptionEvent } from './invoice-request';
import { SubscriptionInvoices, type OpenInvoicesBehavior } from './subscription-invoices';

export type SubscriptionInvoicingCommand =
  | { type: 'IssueInvoice'; data: InvoiceRequest }
  | { type: 'IssueRecordedInvoice'; data: { subscription_id: string; revision: number } }
  | { type: 'ApplyPauseToOpenInvoices'; data: { subscription_id: string; behavior: OpenInvoicesBehavior; revision: number } }
  | { type: 'VoidFirstInvoice'; data: { subscription_id: string; key: string } };

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
    const command = this.commandFor(stored, event.revision);
    return command && { lane: stored.data.subscription_id, command };
  }

  async dispatch(command: SubscriptionInvoicingCommand, context: RequestContext): Promise<void> {
    switch (command.type) {
      case 'IssueInvoice':
        return this.invoices.issue(context, command.data);
      case 'IssueRecordedInvoice':
        return this.invoices.issueAsRecorded(context, command.data.subscription_id, command.data.revision);
      case 'ApplyPauseToOpenInvoices':
        return this.invoices.applyPause(context, command.data.subscription_id, command.data.behavior, command.data.revision);
      case 'VoidFirstInvoice':
        return this.invoices.settleOpen(context, command.data.subscription_id, 'void_invoices', [command.data.key]);
    }
  }

  /** The page's new invoices are issued as a page (SubscriptionInvoices.issueEach); its other commands one by one. */
  dispatchEach(calls: readonly ReactionCall<SubscriptionInvoicingCommand>[]): Promise<PromiseSettledResult<void>[]> {
    return dispatchPageOf(calls, 'IssueInvoice', (page) => this.invoices.issueEach(page.map(({ context, data }) => ({ context, request: data }))), (command, context) => this.dispatch(command, context));
  }

  private commandFor(event: StoredSubscriptionEvent, revision: number): SubscriptionInvoicingCommand | undefined {
    const { subscription_id } = event.data;
    if (event.type === 'SubscriptionPaused') {
      const { behavior } = event.data;
      return behavior === 'keep_as_draft' ? undefined : { type: 'ApplyPauseToOpenInvoices', data: { subscription_id, behavior, revision } };
    }
    if (event.type === 'SubscriptionIncompleteExpired') return { type: 'VoidFirstInvoice', data: { subscription_id, key: `period:${event.data.period_start}` } };
    const billing = 'billing' in event.data ? event.data.billing : undefined;
    if (billing === BASIS_FROM_HISTORY) return { type: 'IssueRecordedInvoice', data: { subscription_id, revision } };
    const request = billing && invoiceRequestOf(event, billing);
    return request && { type: 'IssueInvoice', data: request };
  }
}
