import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { Commands } from '@tally/runtime';
import type { CustomerState, RecordPaymentMethodAttached, RecordPaymentMethodDetached } from './domain/customer.decider';
import { customerAggregate } from './customer.aggregate';

/**
 * What customers publish for the payments context: the customer keeps the list of its payment
 * methods and its default. Each answers the customer's state after the command.
 */
@Injectable()
export class CustomerPaymentMethods {
  constructor(private readonly commands: Commands) {}

  async recordAttached(context: RequestContext, data: RecordPaymentMethodAttached['data']): Promise<CustomerState> {
    return (await this.commands.send(customerAggregate, data.customer_id, { type: 'RecordPaymentMethodAttached', data }, context)).state;
  }

  async recordDetached(context: RequestContext, data: RecordPaymentMethodDetached['data']): Promise<CustomerState> {
    return (await this.commands.send(customerAggregate, data.customer_id, { type: 'RecordPaymentMethodDetached', data }, context)).state;
  }

  /** Makes `paymentMethodId` the customer's default (null: no default). */
  async setDefault(context: RequestContext, customerId: string, paymentMethodId: string | null): Promise<CustomerState> {
    return (await this.commands.send(customerAggregate, customerId, { type: 'UpdateCustomer', data: { customer_id: customerId, default_payment_method_id: paymentMethodId } }, context)).state;
  }
}
