import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandRejected, ProcessDecider, ProcessInput, TimerFired } from '@tally/kernel';
import { ScopedReads, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { LIVE } from './domain/subscription.decider';
import { ApplySubscriptionLifecycleCommand } from './subscription.handlers';
import { SUBSCRIPTION_LIST } from './subscription.resource';
import { subscriptionView, type SubscriptionResource } from './subscription.view';

type CustomerDeleted = ProcessInput<'CustomerDeleted', { customer_id: string }>;
type CancelCustomerSubscriptions = { type: 'CancelCustomerSubscriptions'; data: { customer_id: string } };

/** A deleted customer's subscriptions are canceled at once, as Stripe's are: one command per deleted customer. */
export const customerSubscriptionsDecider: ProcessDecider<{ issued: boolean }, CustomerDeleted | TimerFired | CommandRejected, { kind: 'command'; command: CancelCustomerSubscriptions }> = {
  initialState: () => ({ issued: false }),
  evolve: (state, message) => (message.kind === 'command' ? { issued: true } : state),
  decide: (input, state) => (input.type === 'CustomerDeleted' && !state.issued ? [{ kind: 'command', command: { type: 'CancelCustomerSubscriptions', data: input.data } }] : []),
};

/**
 * Cancels every subscription of a deleted customer (a deleted test clock deletes its customers),
 * without a final invoice: there is nobody left to bill. A subscription canceled meanwhile leaves
 * the listed statuses, so each page starts over.
 */
@Injectable()
export class CustomerSubscriptionsProcess implements ProcessManager<{ issued: boolean }, CustomerDeleted, CancelCustomerSubscriptions> {
  readonly name = 'customer_subscriptions';
  readonly streamPrefixes = ['customer-'];
  readonly decider = customerSubscriptionsDecider;

  constructor(
    private readonly commands: CommandBus,
    private readonly reads: ScopedReads,
  ) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'CustomerDeleted') return undefined;
    const { customer_id } = event.data as { customer_id: string };
    return { processId: customer_id, input: { id: event.id, type: 'CustomerDeleted' as const, data: { customer_id } } };
  }

  async dispatch({ data }: CancelCustomerSubscriptions, context: RequestContext): Promise<void> {
    for (;;) {
      const page = await this.reads.page<SubscriptionResource>(context, subscriptionView.collection, { customer_id: data.customer_id, status: LIVE.join(','), limit: '100' }, SUBSCRIPTION_LIST);
      for (const subscription of page.data) {
        const intent = { type: 'CancelSubscription' as const, data: { when: 'now' as const, reason: 'customer_deleted', final_invoice: false as const } };
        await this.commands.execute(new ApplySubscriptionLifecycleCommand(context, subscription.id, intent));
      }
      if (!page.has_more) return;
    }
  }
}
