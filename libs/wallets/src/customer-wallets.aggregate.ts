import type { AggregateDefinition } from '@tally/runtime';
import { customerWalletsDecider, type CustomerWalletsCommand, type CustomerWalletsState } from './domain/customer-wallets.decider';
import type { CustomerWalletsEvent } from './domain/customer-wallets.events';
import { walletNotFound } from './domain/wallet.decider';

/** One stream per customer, `customer_wallets-<customer id>`: internal, no view and no public event. */
export const customerWalletsAggregate: AggregateDefinition<CustomerWalletsState, CustomerWalletsCommand, CustomerWalletsEvent> = {
  type: 'customer_wallets',
  decider: customerWalletsDecider,
  notFound: walletNotFound,
};
