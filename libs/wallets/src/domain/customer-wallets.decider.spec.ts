import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { customerWalletsDecider } from './customer-wallets.decider';
import type { CustomerWalletRegistered } from './customer-wallets.events';

const spec = DeciderSpecification.for(customerWalletsDecider);
const usd: CustomerWalletRegistered = { type: 'CustomerWalletRegistered', data: { customer_id: 'cus_1', currency: 'USD', wallet_id: 'wal_1' } };

describe('customer wallets decider', () => {
  it('registers the first wallet of a currency', () => spec.given([]).when({ type: 'RegisterCustomerWallet', data: usd.data }).then([usd]));

  it('keeps the first wallet of a currency: a second registration appends nothing', () =>
    spec.given([usd]).when({ type: 'RegisterCustomerWallet', data: { ...usd.data, wallet_id: 'wal_2' } }).thenNothingHappens());

  it('registers a wallet in another currency', () => {
    const eur = { ...usd.data, currency: 'EUR', wallet_id: 'wal_2' };
    spec.given([usd]).when({ type: 'RegisterCustomerWallet', data: eur }).then([{ type: 'CustomerWalletRegistered', data: eur }]);
  });
});
