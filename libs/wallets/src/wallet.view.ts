import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import { defineView, type OwnFields, type StampedResource } from '@tally/runtime';
import type { AutoTopUp, WalletCredited, WalletDebited, WalletEvent, WalletTransaction } from './domain/wallet.events';

/** A posted transaction as the API shows it. A type rather than an interface, so that it is a read-store document. */
export type WalletTransactionResource = {
  id: string;
  object: 'wallet_transaction';
  wallet_id: string;
  customer_id: string;
  currency: string;
  type: WalletTransaction['type'];
  amount: string;
  balance_after: string;
  reason: WalletTransaction['reason'];
  source: WalletTransaction['source'];
  external_id: string | null;
  description: string | null;
  status: 'posted';
  livemode: boolean;
  created_at: string;
};

/** Where the automatic top-up stands: `pending` while a charge is under way, `backing_off` after a decline until `retry_at`. */
export interface AutoTopUpStatus {
  status: 'idle' | 'pending' | 'backing_off';
  last_error: { code: string; message: string } | null;
  retry_at: string | null;
}

export interface WalletResource extends StampedResource {
  object: 'wallet';
  customer_id: string;
  currency: string;
  balance: string;
  auto_top_up: AutoTopUp | null;
  auto_top_up_status: AutoTopUpStatus;
  drift_floor: string | null;
  below_drift_floor: boolean;
  metadata: Record<string, string>;
  /** The last transaction posted (null before any): in a `wallet.credited` or `wallet.debited` event, the one it posted. */
  last_transaction: WalletTransactionResource | null;
  /** The sandbox test clock the wallet lives on (its customer's). */
  test_clock: string | null;
}

export const transactionResource = (
  { wallet_id, customer_id, currency, transaction }: { wallet_id: string; customer_id: string; currency: string; transaction: WalletTransaction },
  livemode: boolean,
): WalletTransactionResource => {
  const { transaction_id, ...fields } = transaction;
  return { id: transaction_id, object: 'wallet_transaction', wallet_id, customer_id, currency, ...fields, status: 'posted', livemode };
};

const IDLE: AutoTopUpStatus = { status: 'idle', last_error: null, retry_at: null };

/** The wallet as the API shows it, folded from its events. */
export const walletView = defineView<WalletResource, WalletEvent, 'WalletCreated'>({
  object: 'wallet',
  created: {
    type: 'WalletCreated',
    fields: ({ customer_id, currency, auto_top_up, drift_floor, metadata }, event) => ({
      customer_id,
      currency,
      balance: formatAmount(new Big(0), currency),
      auto_top_up,
      auto_top_up_status: IDLE,
      drift_floor,
      below_drift_floor: false,
      metadata,
      last_transaction: null,
      test_clock: event.metadata.clock_id ?? null,
    }),
  },
  changes: {
    WalletUpdated: (wallet, { wallet_id: _id, ...changes }) => ({ ...changes, metadata: changes.metadata ?? wallet.metadata }),
    WalletCredited: (_wallet, data, event) => posted(data, event.metadata.environment === 'live'),
    WalletDebited: (_wallet, data, event) => posted(data, event.metadata.environment === 'live'),
    WalletAutoTopUpTriggered: (wallet) => ({ auto_top_up_status: { ...wallet.auto_top_up_status, status: 'pending', retry_at: null } }),
    WalletAutoTopUpSucceeded: () => ({ auto_top_up_status: IDLE }),
    WalletAutoTopUpFailed: (_wallet, { last_error, retry_at }) => ({ auto_top_up_status: { status: 'backing_off', last_error, retry_at } }),
    WalletBelowDriftFloor: () => ({ below_drift_floor: true }),
  },
  publicTypes: {
    WalletCreated: undefined,
    WalletUpdated: undefined,
    WalletCredited: 'wallet.credited',
    WalletDebited: 'wallet.debited',
    WalletAutoTopUpTriggered: undefined,
    WalletAutoTopUpSucceeded: 'wallet.auto_topup_succeeded',
    WalletAutoTopUpFailed: 'wallet.auto_topup_failed',
    WalletBelowDriftFloor: 'wallet.below_drift_floor',
  },
  // The latch is released once the balance is back at or above the floor (or the floor is cleared).
  derive: (wallet) => (wallet.below_drift_floor && !(wallet.drift_floor !== null && new Big(wallet.balance).lt(wallet.drift_floor)) ? { ...wallet, below_drift_floor: false } : wallet),
});

const posted = (data: WalletCredited['data'] | WalletDebited['data'], livemode: boolean): Partial<OwnFields<WalletResource>> => ({
  balance: data.transaction.balance_after,
  last_transaction: transactionResource(data, livemode),
});
