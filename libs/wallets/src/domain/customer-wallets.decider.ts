import type { Command, Decider } from '@tally/kernel';
import type { CustomerWalletRegistered, CustomerWalletsEvent } from './customer-wallets.events';

/**
 * A customer's wallets by currency, kept on the write side so that "one wallet per customer per
 * currency" is decided from the event store: two racing registrations append at one expected
 * revision, and the loser, deciding again, finds the currency taken and appends nothing.
 */
export type CustomerWalletsState = ReadonlyMap<string, string>;

export type RegisterCustomerWallet = Command<'RegisterCustomerWallet', CustomerWalletRegistered['data']>;

export type CustomerWalletsCommand = RegisterCustomerWallet;

export const customerWalletsDecider: Decider<CustomerWalletsState, CustomerWalletsCommand, CustomerWalletsEvent> = {
  initialState: () => new Map(),
  decide: (command, state) => (state.has(command.data.currency) ? [] : [{ type: 'CustomerWalletRegistered', data: command.data }]),
  evolve: (state, event) => new Map(state).set(event.data.currency, event.data.wallet_id),
};
