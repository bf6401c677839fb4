import type { Event } from '@tally/kernel';

/** The customer's wallet in `currency` is `wallet_id`: the first registered in a currency stays the only one. */
export type CustomerWalletRegistered = Event<'CustomerWalletRegistered', { customer_id: string; currency: string; wallet_id: string }>;

export type CustomerWalletsEvent = CustomerWalletRegistered;
