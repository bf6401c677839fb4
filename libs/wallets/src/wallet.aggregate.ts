import { publishedCommands, type AggregateDefinition } from '@tally/runtime';
import { walletDecider, walletNotFound, type WalletCommand, type WalletState } from './domain/wallet.decider';
import type { WalletEvent } from './domain/wallet.events';
import { walletTimers } from './domain/wallet.timers';
import { walletView, type WalletResource } from './wallet.view';

export const walletAggregate: AggregateDefinition<WalletState, WalletCommand, WalletEvent, WalletResource> = {
  type: 'wallet',
  decider: walletDecider,
  view: walletView,
  notFound: walletNotFound,
  timers: walletTimers,
};

/** What other contexts send a wallet: credits and debits (settlement, credit notes, refunds), each under a transaction id of their choosing. */
export const walletPostings = publishedCommands(walletAggregate, ['CreditWallet', 'DebitWallet']);
