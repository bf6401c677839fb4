import { Injectable } from '@nestjs/common';
import { DomainError, type OneCommandState } from '@tally/kernel';
import { Commands, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { billingSubscriptions, CustomerSubscriptions } from '@tally/customers';
import { customerSubscriptionsProcessDecider, type CancelCustomerSubscriptions, type CustomerDeleted } from './domain/customer-subscriptions-process.decider';
import { subscriptionAggregate } from './subscription.aggregate';
import { cancelWithoutFinalInvoice } from './subscription-changes';

/**
 * Cancels every subscription of a deleted customer (a deleted test clock deletes its customers),
 * without a final invoice: there is nobody left to bill. Which subscriptions may still bill comes
 * from the customer's subscription index, on the write side.
 */
@Injectable()
export class CustomerSubscriptionsProcess implements ProcessManager<OneCommandState, CustomerDeleted, CancelCustomerSubscriptions> {
  readonly name = 'customer_subscriptions';
  readonly streamPrefixes = ['customer-'];
  readonly decider = customerSubscriptionsProcessDecider;

  constructor(
    private readonly commands: Commands,
    private readonly customerSubscriptions: CustomerSubscriptions,
  ) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'CustomerDeleted') return undefined;
    const { customer_id } = event.data as { customer_id: string };
    return { processId: customer_id, input: { id: event.id, type: 'CustomerDeleted' as const, data: { customer_id } } };
  }

  /** A subscription that ended meanwhile (the index learns it a moment later) refuses its cancellation; the others are still canceled. */
  async dispatch({ data }: CancelCustomerSubscriptions, context: RequestContext): Promise<void> {
    const index = await this.customerSubscriptions.of(context, data.customer_id);
    for (const subscriptionId of billingSubscriptions(index)) {
      await this.commands.send(subscriptionAggregate, subscriptionId, cancelWithoutFinalInvoice(subscriptionId, 'customer_deleted'), context).catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      });
    }
  }
}
