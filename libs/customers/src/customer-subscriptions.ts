import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { CustomerSubscriptionsState, RecordCustomerSubscription } from './domain/customer-subscriptions.decider';
import { customerSubscriptionsAggregate } from './customer-subscriptions.aggregate';

/**
 * What customers publish of a customer's subscription index: the subscriptions context records what
 * each subscription bills with; writes of other contexts read it from the event store.
 */
@Injectable()
export class CustomerSubscriptions {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  async record(context: RequestContext, data: RecordCustomerSubscription['data']): Promise<void> {
    await this.commands.send(customerSubscriptionsAggregate, data.customer_id, { type: 'RecordCustomerSubscription', data }, context);
  }

  async of(context: RequestContext, customerId: string): Promise<CustomerSubscriptionsState> {
    return (await this.runtime.load(this.runtime.cellOf(context), customerSubscriptionsAggregate, customerId, context)).state;
  }
}
