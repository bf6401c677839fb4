import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@tally/eventstore';
import type { ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { ApplySubscriptionLifecycleCommand } from '../subscription.handlers';
import { InvoiceSubscriptionCommand } from './invoice-subscription.handler';
import { ApplyPauseToOpenInvoicesCommand } from './pause-open-invoices.handler';
import { subscriptionCycleDecider, type CycleCommand, type CycleInput, type CycleState } from './subscription-cycle.decider';

/** The subscription events the cycle acts on. */
const FOLLOWED = new Set<SubscriptionEvent['type']>([
  'SubscriptionCreated',
  'SubscriptionActivated',
  'SubscriptionRenewed',
  'SubscriptionPaused',
  'SubscriptionResumed',
  'SubscriptionPlanChanged',
  'SubscriptionCanceled',
  'SubscriptionEnded',
  'SubscriptionAwaitingPayment',
  'SubscriptionIncompleteExpired',
]);

/**
 * Runs each subscription's cycle: one invoice per period, per immediate proration and per end
 * (its timers are the subscription's own).
 */
@Injectable()
export class SubscriptionCycleProcess implements ProcessManager<CycleState, CycleInput, CycleCommand> {
  readonly name = 'subscription_cycle';
  readonly streamPrefixes = ['subscription-', 'invoice-'];
  readonly decider = subscriptionCycleDecider;
  /** A subscription's cycle never ends while it lives: two events a period, so a daily plan's stream grows by some 730 a year. */
  readonly snapshot = { every: 100, version: 1 };
  /** An invoice that cannot be built or finalised (a refused line, a tax rule, a discount) is parked, never dropped: the period it bills closed already. */
  readonly parkWhenRefused = ['IssueInvoice'] as const;

  constructor(private readonly commands: CommandBus) {}

  route(event: RecordedEvent): { processId: string; input: CycleInput } | undefined {
    if (event.type === 'InvoicePaid' || event.type === 'InvoicePaymentFailed') {
      const { invoice_id, subscription_id } = event.data as { invoice_id: string; subscription_id: string | null };
      if (subscription_id === null) return undefined;
      return { processId: subscription_id, input: { id: event.id, type: event.type, data: { invoice_id, subscription_id, occurred_at: event.metadata.occurred_at } } };
    }
    if (!FOLLOWED.has(event.type as SubscriptionEvent['type'])) return undefined;
    const data = event.data as SubscriptionEvent['data'];
    return { processId: data.subscription_id, input: { id: event.id, type: event.type as SubscriptionEvent['type'], data: { ...data, occurred_at: event.metadata.occurred_at } } };
  }

  async dispatch(command: CycleCommand, context: RequestContext): Promise<void> {
    if (command.type === 'AdvanceSubscription') {
      await this.commands.execute(new ApplySubscriptionLifecycleCommand(context, command.data.subscription_id, command.data.step));
      return;
    }
    if (command.type === 'ApplyPauseToOpenInvoices') {
      const { subscription_id, behavior, current_invoice_key } = command.data;
      await this.commands.execute(new ApplyPauseToOpenInvoicesCommand(context, subscription_id, behavior, current_invoice_key));
      return;
    }
    await this.commands.execute(new InvoiceSubscriptionCommand(context, command.data));
  }
}
