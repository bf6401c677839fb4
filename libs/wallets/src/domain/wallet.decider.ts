import Big from 'big.js';
import { checkMetadata, derivedId, DomainError, formatAmount, isCurrency, mergeMetadata, sameMetadata, type Command, type Decider, type Metadata } from '@tally/kernel';
import { recordOf } from './keyed-records';
import { walletAmount } from './wallet-amounts';
import { topUpIfDue, topUpRecorded } from './wallet-top-up';
import type { AutoTopUp, WalletCreated, WalletCreditReason, WalletDebitReason, WalletEvent, WalletSource } from './wallet.events';
import { evolveWallet, initialWalletState, isBelowDriftFloor, posting, WALLET_TRANSACTION_ID_PREFIX, type ActiveWallet, type WalletState } from './wallet.state';

export { transactionOf, transactionOfExternalId, WALLET_ID_PREFIX, WALLET_TRANSACTION_ID_PREFIX, type WalletState } from './wallet.state';
export { AUTO_TOP_UP_BACKOFF_HOURS } from './wallet-top-up';

export type CreateWallet = Command<'CreateWallet', WalletCreated['data']>;
/** `metadata` is a patch (an empty string removes a key); null `auto_top_up` or `drift_floor` clears it. */
export type UpdateWallet = Command<'UpdateWallet', { wallet_id: string; auto_top_up?: AutoTopUp | null; drift_floor?: string | null; metadata?: Metadata }>;

interface PostingRequest {
  wallet_id: string;
  /** Chosen by the sender from the cause (`wtx_` + a hash of it), so a redelivered command posts once. */
  transaction_id: string;
  amount: string;
  source: WalletSource;
  external_id: string | null;
  description: string | null;
  /** The moment of posting on the wallet's clock (send the command as a builder to get it). */
  now: string;
}

export type CreditWallet = Command<'CreditWallet', PostingRequest & { reason: WalletCreditReason }>;
/** `partial`: debit what there is, up to `amount` (refused only at a zero balance); otherwise refuse a debit below zero. */
export type DebitWallet = Command<'DebitWallet', PostingRequest & { reason: WalletDebitReason; partial: boolean }>;

/** What the payment provider answered to a top-up's charge. */
export type RecordAutoTopUpOutcome = Command<
  'RecordAutoTopUpOutcome',
  { wallet_id: string; top_up_id: string; outcome: { status: 'succeeded'; provider_payment_id: string } | { status: 'failed'; code: string; message: string }; now: string }
>;

/** The back-off after a declined top-up ended: top up again if the balance is still at or below the trigger. */
export type RetryAutoTopUp = Command<'RetryAutoTopUp', { wallet_id: string; retry_at: string }>;

export type WalletCommand = CreateWallet | UpdateWallet | CreditWallet | DebitWallet | RecordAutoTopUpOutcome | RetryAutoTopUp;

export const walletNotFound = (id: string) => DomainError.notFound('wallet.not_found', `No wallet ${id}`);

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: initialWalletState,

  decide(command, state) {
    if (command.type === 'CreateWallet') return state.status === 'none' ? [{ type: 'WalletCreated', data: validCreation(command.data) }] : [];
    if (state.status !== 'active') throw walletNotFound(command.data.wallet_id);
    switch (command.type) {
      case 'UpdateWallet':
        return withDriftFloor(state, updated(state, command.data));
      case 'CreditWallet':
        return withDriftFloor(state, credited(state, command.data));
      case 'DebitWallet':
        return withDriftFloor(state, debited(state, command.data));
      case 'RecordAutoTopUpOutcome':
        return withDriftFloor(state, topUpRecorded(state, command.data));
      case 'RetryAutoTopUp': {
        if (state.topUp.retryAt !== command.data.retry_at || state.topUp.pending !== null) return [];
        return topUpIfDue(state, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up_retry', command.data.retry_at]), null);
      }
    }
  },

  evolve: evolveWallet,
};

function validCreation(data: WalletCreated['data']): WalletCreated['data'] {
  if (!isCurrency(data.currency)) {
    throw DomainError.invalid('money.unknown_currency', `${data.currency} is not an ISO 4217 currency code`, [
      { field: 'currency', code: 'money.unknown_currency', message: 'an uppercase ISO 4217 code' },
    ]);
  }
  checkMetadata(data.metadata);
  return {
    ...data,
    auto_top_up: data.auto_top_up && validAutoTopUp(data.auto_top_up, data.currency),
    drift_floor: data.drift_floor === null ? null : walletAmount(data.drift_floor, data.currency, 'drift_floor', { atLeastZero: true }),
  };
}

const validAutoTopUp = (autoTopUp: AutoTopUp, currency: string): AutoTopUp => ({
  ...autoTopUp,
  trigger_at: walletAmount(autoTopUp.trigger_at, currency, 'auto_top_up.trigger_at', { atLeastZero: true }),
  amount: walletAmount(autoTopUp.amount, currency, 'auto_top_up.amount'),
});

function updated(state: ActiveWallet, data: UpdateWallet['data']): WalletEvent[] {
  const autoTopUp = data.auto_top_up && validAutoTopUp(data.auto_top_up, state.currency);
  const driftFloor = data.drift_floor && walletAmount(data.drift_floor, state.currency, 'drift_floor', { atLeastZero: true });
  const metadata = data.metadata && mergeMetadata(state.metadata, data.metadata);
  const changes = {
    ...(autoTopUp !== undefined && !sameAutoTopUp(autoTopUp, state.autoTopUp) && { auto_top_up: autoTopUp }),
    ...(driftFloor !== undefined && driftFloor !== state.driftFloor && { drift_floor: driftFloor }),
    ...(metadata !== undefined && !sameMetadata(metadata, state.metadata) && { metadata }),
  };
  return Object.keys(changes).length === 0 ? [] : [{ type: 'WalletUpdated', data: { wallet_id: state.id, ...changes } }];
}

const sameAutoTopUp = (a: AutoTopUp | null, b: AutoTopUp | null): boolean =>
  a === b || (a !== null && b !== null && a.enabled === b.enabled && a.trigger_at === b.trigger_at && a.amount === b.amount && a.payment_method_id === b.payment_method_id);

/**
 * A posting already made answers nothing new: the same transaction id (a redelivered command), or
 * the same `external_id` for the same amount (a replayed request). The same `external_id` with
 * another amount or direction is the caller's mistake: 409.
 */
function alreadyPosted(state: ActiveWallet, type: 'credit' | 'debit', data: PostingRequest, amount: string): boolean {
  if (recordOf(state.transactions, data.transaction_id)) return true;
  if (data.external_id === null) return false;
  const postedId = recordOf(state.externalIds, data.external_id);
  if (postedId === undefined) return false;
  const posted = recordOf(state.transactions, postedId)!;
  if (posted.type === type && posted.amount === amount) return true;
  throw DomainError.conflict('wallet.external_id_conflict', `external_id ${data.external_id} already posted a ${posted.type} of ${posted.amount} ${state.currency}`);
}

function credited(state: ActiveWallet, data: CreditWallet['data']): WalletEvent[] {
  const amount = walletAmount(data.amount, state.currency, 'amount');
  if (alreadyPosted(state, 'credit', data, amount)) return [];
  const balanceAfter = formatAmount(new Big(state.balance).plus(amount), state.currency);
  return [{ type: 'WalletCredited', data: { ...posting(state), transaction: { ...transactionOfRequest(state, data, amount, balanceAfter), type: 'credit', reason: data.reason } } }];
}

function debited(state: ActiveWallet, data: DebitWallet['data']): WalletEvent[] {
  const requested = walletAmount(data.amount, state.currency, 'amount');
  if (alreadyPosted(state, 'debit', data, requested)) return [];
  const balance = new Big(state.balance);
  if (balance.eq(0) || (!data.partial && balance.lt(requested))) {
    throw DomainError.conflict('wallet.insufficient_balance', `The wallet holds ${state.balance} ${state.currency}, less than the ${requested} debited`);
  }
  const amount = data.partial && balance.lt(requested) ? state.balance : requested;
  const balanceAfter = formatAmount(balance.minus(amount), state.currency);
  const transaction = { ...transactionOfRequest(state, data, amount, balanceAfter), type: 'debit' as const, reason: data.reason };
  const debit: WalletEvent = { type: 'WalletDebited', data: { ...posting(state), transaction } };
  const after = evolveWallet(state, debit) as ActiveWallet;
  const inBackOff = after.topUp.retryAt !== null && data.now < after.topUp.retryAt;
  return [debit, ...(inBackOff ? [] : topUpIfDue(after, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up', data.transaction_id]), data.transaction_id))];
}



const transactionOfRequest = (state: ActiveWallet, data: PostingRequest, amount: string, balanceAfter: string) => ({
  transaction_id: data.transaction_id,
  sequence: state.postings + 1,
  amount,
  balance_after: balanceAfter,
  source: data.source,
  external_id: data.external_id,
  description: data.description,
  created_at: data.now,
});



/** The events decided, and `WalletBelowDriftFloor` after them when they take the balance below the floor while the latch is off. */
function withDriftFloor(state: ActiveWallet, events: WalletEvent[]): WalletEvent[] {
  if (events.length === 0 || state.belowDriftFloor) return events;
  const after = events.reduce(evolveWallet, state as WalletState) as ActiveWallet;
  if (after.belowDriftFloor || !isBelowDriftFloor(after)) return events;
  return [...events, { type: 'WalletBelowDriftFloor', data: { ...posting(after), drift_floor: after.driftFloor!, balance: after.balance } }];
}
