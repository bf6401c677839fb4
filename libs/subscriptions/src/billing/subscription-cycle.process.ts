import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import { Commands, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { SubscriptionCommand } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { subscriptionAggregate } from '../subscription.aggregate';
import { subscriptionCycleDecider, type CycleCommand, type CycleInput, type CycleState } from './subscription-cycle.decider';

/** The subscription events the cycle sets timers for. */
const FOLLOWED = new Set<SubscriptionEvent['type']>(['SubscriptionCreated', 'SubscriptionActivated', 'SubscriptionRenewed', 'SubscriptionPaused', 'SubscriptionAwaitingPayment']);

/** Runs each subscription's timers on its clock: trial and period ends, the automatic resume, the commitment's warning, the incomplete expiry. */
@Injectable()
export class SubscriptionCycleProcess implements ProcessManager<CycleState, CycleInput, CycleCommand> {
  readonly name = 'subscription_cycle';
  readonly streamPrefixes = ['subscription-'];
  readonly decider = subscriptionCycleDecider;
  /** A subscription's cycle never ends while it lives: about four events a period, so a daily plan's stream grows by some 1,500 a year. */
  readonly snapshot = { every: 100, version: 1 };

  constructor(private readonly commands: Commands) {}

  route(event: RecordedEvent): { processId: string; input: CycleInput } | undefined {
    if (!FOLLOWED.has(event.type as SubscriptionEvent['type'])) return undefined;
    const data = event.data as SubscriptionEvent['data'];
    return { processId: data.subscription_id, input: { id: event.id, type: event.type as SubscriptionEvent['type'], data: { ...data, occurred_at: event.metadata.occurred_at } } };
  }

  async dispatch(command: CycleCommand, context: RequestContext): Promise<void> {
    // Invoices this process asked for before they were the subscription invoicing reaction's are issued by that reaction.
    if (command.type !== 'AdvanceSubscription') return;
    const { subscription_id, step } = command.data;
    await this.commands.send(subscriptionAggregate, subscription_id, (at) => ({ type: step.type, data: { subscription_id, at, ...step.data } }) as SubscriptionCommand, context);
  }
}
