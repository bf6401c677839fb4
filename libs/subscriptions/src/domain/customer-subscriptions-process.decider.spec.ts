import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { customerSubscriptionsProcessDecider, type CustomerDeleted } from './customer-subscriptions-process.decider';

const spec = ProcessSpecification.for(customerSubscriptionsProcessDecider);
const data = { customer_id: 'cus_01JCUSTOMER00000000000000' };
const deleted: CustomerDeleted = { id: '01JEVENT000000000000000001', type: 'CustomerDeleted', data };

describe('customer subscriptions process', () => {
  it('cancels the subscriptions of a deleted customer', () => {
    spec.given([]).when(deleted).then([{ kind: 'command', command: { type: 'CancelCustomerSubscriptions', data } }]);
  });

  it('cancels them once, however often the deletion arrives', () => {
    spec.given([deleted]).when({ ...deleted, id: '01JEVENT000000000000000002' }).thenNothingHappens();
  });
});
