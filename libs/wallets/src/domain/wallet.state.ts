import Big from 'big.js';
import { formatAmount, type Metadata } from '@tally/kernel';
import { emptyRecords, recordOf, withRecord, type KeyedRecords } from './keyed-records';
import type { AutoTopUp, WalletEvent, WalletTransaction } from './wallet.events';

export const WALLET_ID_PREFIX = 'wal';
export const WALLET_TRANSACTION_ID_PREFIX = 'wtx';

/** What a wallet's decider knows of it; `evolveWallet` folds its events into it, for the decider and the automatic top-up alike. */
export type WalletState =
  | { status: 'none' }
  | {
      status: 'active';
      id: string;
      customerId: string;
      currency: string;
      balance: string;
      /** Transactions posted so far. */
      postings: number;
      autoTopUp: AutoTopUp | null;
      driftFloor: string | null;
      /** Latched when the balance went below the drift floor; released once it is back at or above it. */
      belowDriftFloor: boolean;
      metadata: Metadata;
      transactions: KeyedRecords<WalletTransaction>;
      /** The transaction each caller's `external_id` posted. */
      externalIds: KeyedRecords<string>;
      /** The top-up charged now (null: none), the declines in a row, and the end of the back-off they set. */
      topUp: { pending: { id: string; amount: string; paymentMethodId: string } | null; failures: number; retryAt: string | null };
    };

export type ActiveWallet = Extract<WalletState, { status: 'active' }>;

export const initialWalletState = (): WalletState => ({ status: 'none' });

/** The wallet after one of its events. */
export function evolveWallet(state: WalletState, event: WalletEvent): WalletState {
  if (event.type === 'WalletCreated') {
    const { wallet_id, customer_id, currency, auto_top_up, drift_floor, metadata } = event.data;
    return {
      status: 'active',
      id: wallet_id,
      customerId: customer_id,
      currency,
      balance: formatAmount(new Big(0), currency),
      postings: 0,
      autoTopUp: auto_top_up,
      driftFloor: drift_floor,
      belowDriftFloor: false,
      metadata,
      transactions: emptyRecords(),
      externalIds: emptyRecords(),
      topUp: { pending: null, failures: 0, retryAt: null },
    };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'WalletUpdated': {
      const { wallet_id: _id, auto_top_up, drift_floor, metadata } = event.data;
      const next = {
        ...state,
        ...(auto_top_up !== undefined && { autoTopUp: auto_top_up }),
        ...(drift_floor !== undefined && { driftFloor: drift_floor }),
        ...(metadata !== undefined && { metadata }),
      };
      return { ...next, belowDriftFloor: next.belowDriftFloor && isBelowDriftFloor(next) };
    }
    case 'WalletCredited':
    case 'WalletDebited': {
      const { transaction } = event.data;
      const next = {
        ...state,
        balance: transaction.balance_after,
        postings: transaction.sequence,
        transactions: withRecord(state.transactions, transaction.transaction_id, transaction),
        externalIds: transaction.external_id === null ? state.externalIds : withRecord(state.externalIds, transaction.external_id, transaction.transaction_id),
      };
      return { ...next, belowDriftFloor: next.belowDriftFloor && isBelowDriftFloor(next) };
    }
    case 'WalletAutoTopUpTriggered':
      return { ...state, topUp: { ...state.topUp, pending: { id: event.data.top_up_id, amount: event.data.amount, paymentMethodId: event.data.payment_method_id }, retryAt: null } };
    case 'WalletAutoTopUpSucceeded':
      return { ...state, topUp: { pending: null, failures: 0, retryAt: null } };
    case 'WalletAutoTopUpFailed':
      return { ...state, topUp: { pending: null, failures: state.topUp.failures + 1, retryAt: event.data.retry_at } };
    case 'WalletBelowDriftFloor':
      return { ...state, belowDriftFloor: true };
  }
}

/** Below the drift floor, if the wallet has one. */
export const isBelowDriftFloor = (state: ActiveWallet): boolean => state.driftFloor !== null && new Big(state.balance).lt(state.driftFloor);

/** Who and what a wallet's events name. */
export const posting = (state: ActiveWallet) => ({ wallet_id: state.id, customer_id: state.customerId, currency: state.currency });

/** The transaction an `external_id` posted on the wallet, if any: what a replayed request answers. */
export function transactionOfExternalId(state: WalletState, externalId: string): WalletTransaction | undefined {
  if (state.status !== 'active') return undefined;
  const id = recordOf(state.externalIds, externalId);
  return id === undefined ? undefined : recordOf(state.transactions, id);
}

/** A transaction of the wallet by its id, if it was posted. */
export const transactionOf = (state: WalletState, transactionId: string): WalletTransaction | undefined =>
  state.status === 'active' ? recordOf(state.transactions, transactionId) : undefined;
