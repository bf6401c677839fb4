import type { AggregateTimers } from '@tally/kernel';
import type { WalletCommand } from './wallet.decider';
import type { WalletEvent } from './wallet.events';

/** A declined top-up looks again when its back-off ends; a top-up that starts meanwhile makes that moot. */
export const walletTimers: AggregateTimers<WalletCommand, WalletEvent> = (event) => {
  switch (event.type) {
    case 'WalletAutoTopUpFailed': {
      const { wallet_id, retry_at } = event.data;
      return [{ schedule: { name: `auto_top_up_retry:${retry_at}`, due_at: retry_at, command: { type: 'RetryAutoTopUp', data: { wallet_id, retry_at } } } }];
    }
    case 'WalletAutoTopUpTriggered':
      return [{ cancelEvery: 'auto_top_up_retry:' }];
    default:
      return [];
  }
};
