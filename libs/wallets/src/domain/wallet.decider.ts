import Big from 'big.js';
import { checkMetadata, derivedId, DomainError, formatAmount, isCurrency, mergeMetadata, sameMetadata, type Command, type Decider, type Metadata } from '@tally/kernel';
import { emptyRecords, recordOf, withRecord, type KeyedRecords } from './keyed-records';
import { walletAmount } from './wallet-amounts';
import type {
  AutoTopUp,
  WalletCreated,
  WalletCreditReason,
  WalletDebitReason,
  WalletEvent,
  WalletSource,
  WalletTransaction,
} from './wallet.events';

export const WALLET_ID_PREFIX = 'wal';
export const WALLET_TRANSACTION_ID_PREFIX = 'wtx';

/** A declined top-up waits an hour, doubled with each decline in a row, at most a day (on the wallet's clock). */
export const AUTO_TOP_UP_BACKOFF_HOURS = { first: 1, max: 24 } as const;

export type WalletState =
  | { status: 'none' }
  | {
      status: 'active';
      id: string;
      customerId: string;
      currency: string;
      balance: string;
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

type ActiveWallet = Extract<WalletState, { status: 'active' }>;

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
  { wallet_id: string; top_up_id: string; outcome: { status: 'succeeded'; payment_id: string } | { status: 'failed'; code: string; message: string }; now: string }
>;

/** The back-off after a declined top-up ended: top up again if the balance is still at or below the trigger. */
export type RetryAutoTopUp = Command<'RetryAutoTopUp', { wallet_id: string; retry_at: string }>;

export type WalletCommand = CreateWallet | UpdateWallet | CreditWallet | DebitWallet | RecordAutoTopUpOutcome | RetryAutoTopUp;

export const walletNotFound = (id: string) => DomainError.notFound('wallet.not_found', `No wallet ${id}`);

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: () => ({ status: 'none' }),

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
        return topUpIfDue(state, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up_retry', command.data.retry_at]), state.id);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'WalletCreated') {
      const { wallet_id, customer_id, currency, auto_top_up, drift_floor, metadata } = event.data;
      return {
        status: 'active',
        id: wallet_id,
        customerId: customer_id,
        currency,
        balance: formatAmount(new Big(0), currency),
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
  },
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

/** The transaction an `external_id` posted on the wallet, if any: what a replayed request answers. */
export function transactionOfExternalId(state: WalletState, externalId: string): WalletTransaction | undefined {
  if (state.status !== 'active') return undefined;
  const id = recordOf(state.externalIds, externalId);
  return id === undefined ? undefined : recordOf(state.transactions, id);
}

/** A transaction of the wallet by its id, if it was posted. */
export const transactionOf = (state: WalletState, transactionId: string): WalletTransaction | undefined =>
  state.status === 'active' ? recordOf(state.transactions, transactionId) : undefined;

function credited(state: ActiveWallet, data: CreditWallet['data']): WalletEvent[] {
  const amount = walletAmount(data.amount, state.currency, 'amount');
  if (alreadyPosted(state, 'credit', data, amount)) return [];
  const balanceAfter = formatAmount(new Big(state.balance).plus(amount), state.currency);
  return [{ type: 'WalletCredited', data: { ...posting(state), transaction: { ...transactionOfRequest(data, amount, balanceAfter), type: 'credit', reason: data.reason } } }];
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
  const transaction = { ...transactionOfRequest(data, amount, balanceAfter), type: 'debit' as const, reason: data.reason };
  const debit: WalletEvent = { type: 'WalletDebited', data: { ...posting(state), transaction } };
  const after = walletDecider.evolve(state, debit) as ActiveWallet;
  const inBackOff = after.topUp.retryAt !== null && data.now < after.topUp.retryAt;
  return [debit, ...(inBackOff ? [] : topUpIfDue(after, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up', data.transaction_id]), data.transaction_id))];
}

const posting = (state: ActiveWallet) => ({ wallet_id: state.id, customer_id: state.customerId, currency: state.currency });

const transactionOfRequest = (data: PostingRequest, amount: string, balanceAfter: string) => ({
  transaction_id: data.transaction_id,
  amount,
  balance_after: balanceAfter,
  source: data.source,
  external_id: data.external_id,
  description: data.description,
  created_at: data.now,
});

/**
 * One top-up when the balance is at or below the trigger and none is under way: `amount` × k, the
 * smallest k that takes the balance above `trigger_at`, charged once (Lago charged once per
 * increment until it caught up).
 */
function topUpIfDue(state: ActiveWallet, topUpId: string, triggerTransactionId: string): WalletEvent[] {
  const rule = state.autoTopUp;
  if (!rule?.enabled || state.topUp.pending !== null) return [];
  const shortfall = new Big(rule.trigger_at).minus(state.balance);
  if (shortfall.lt(0)) return [];
  const times = shortfall.div(rule.amount).round(0, Big.roundDown).plus(1);
  const amount = formatAmount(times.times(rule.amount), state.currency);
  return [{ type: 'WalletAutoTopUpTriggered', data: { ...posting(state), top_up_id: topUpId, amount, payment_method_id: rule.payment_method_id, trigger_transaction_id: triggerTransactionId } }];
}

function topUpRecorded(state: ActiveWallet, data: RecordAutoTopUpOutcome['data']): WalletEvent[] {
  const pending = state.topUp.pending;
  if (pending?.id !== data.top_up_id) return [];
  const { amount } = pending;
  const triggered = { ...posting(state), top_up_id: data.top_up_id, payment_method_id: pending.paymentMethodId };
  const { outcome } = data;
  if (outcome.status === 'failed') {
    const hours = Math.min(AUTO_TOP_UP_BACKOFF_HOURS.first * 2 ** state.topUp.failures, AUTO_TOP_UP_BACKOFF_HOURS.max);
    const retry_at = new Date(Date.parse(data.now) + hours * 3_600_000).toISOString();
    return [{ type: 'WalletAutoTopUpFailed', data: { ...triggered, amount, last_error: { code: outcome.code, message: outcome.message }, retry_at } }];
  }
  const credit: WalletEvent = {
    type: 'WalletCredited',
    data: {
      ...posting(state),
      transaction: {
        transaction_id: data.top_up_id,
        type: 'credit',
        amount,
        balance_after: formatAmount(new Big(state.balance).plus(amount), state.currency),
        reason: 'auto_topup',
        source: { type: 'payment', id: outcome.payment_id },
        external_id: null,
        description: 'Auto top-up',
        created_at: data.now,
      },
    },
  };
  const succeeded: WalletEvent = { type: 'WalletAutoTopUpSucceeded', data: { ...triggered, amount, payment_id: outcome.payment_id, transaction_id: data.top_up_id } };
  const after = walletDecider.evolve(walletDecider.evolve(state, credit), succeeded) as ActiveWallet;
  return [credit, succeeded, ...topUpIfDue(after, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up', data.top_up_id]), data.top_up_id)];
}

const isBelowDriftFloor = (state: ActiveWallet): boolean => state.driftFloor !== null && new Big(state.balance).lt(state.driftFloor);

/** The events decided, and `WalletBelowDriftFloor` after them when they take the balance below the floor while the latch is off. */
function withDriftFloor(state: ActiveWallet, events: WalletEvent[]): WalletEvent[] {
  if (events.length === 0 || state.belowDriftFloor) return events;
  const after = events.reduce(walletDecider.evolve, state as WalletState) as ActiveWallet;
  if (after.belowDriftFloor || !isBelowDriftFloor(after)) return events;
  return [...events, { type: 'WalletBelowDriftFloor', data: { ...posting(after), drift_floor: after.driftFloor!, balance: after.balance } }];
}
