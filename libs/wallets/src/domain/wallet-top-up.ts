import Big from 'big.js';
import { derivedId, formatAmount } from '@tally/kernel';
import type { RecordAutoTopUpOutcome } from './wallet.decider';
import type { WalletEvent } from './wallet.events';
import { evolveWallet, posting, WALLET_TRANSACTION_ID_PREFIX, type ActiveWallet } from './wallet.state';

/** A declined top-up waits an hour, doubled with each decline in a row, at most a day (on the wallet's clock). */
export const AUTO_TOP_UP_BACKOFF_HOURS = { first: 1, max: 24 } as const;

/**
 * One top-up when the balance is at or below the trigger and none is under way: `amount` × k, the
 * smallest k that takes the balance above `trigger_at`, charged once (Lago charged once per
 * increment until it caught up).
 */
export function topUpIfDue(state: ActiveWallet, topUpId: string, triggerTransactionId: string | null): WalletEvent[] {
  const rule = state.autoTopUp;
  if (!rule?.enabled || state.topUp.pending !== null) return [];
  const shortfall = new Big(rule.trigger_at).minus(state.balance);
  if (shortfall.lt(0)) return [];
  const times = shortfall.div(rule.amount).round(0, Big.roundDown).plus(1);
  const amount = formatAmount(times.times(rule.amount), state.currency);
  return [{ type: 'WalletAutoTopUpTriggered', data: { ...posting(state), top_up_id: topUpId, amount, payment_method_id: rule.payment_method_id, trigger_transaction_id: triggerTransactionId } }];
}

/** The charge's outcome: the credit and `WalletAutoTopUpSucceeded` (then a next top-up if the balance is still at or below the trigger), or `WalletAutoTopUpFailed` and the back-off. */
export function topUpRecorded(state: ActiveWallet, data: RecordAutoTopUpOutcome['data']): WalletEvent[] {
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
        sequence: state.postings + 1,
        type: 'credit',
        amount,
        balance_after: formatAmount(new Big(state.balance).plus(amount), state.currency),
        reason: 'auto_topup',
        source: { type: 'top_up', id: data.top_up_id },
        external_id: null,
        description: 'Auto top-up',
        created_at: data.now,
      },
    },
  };
  const succeeded: WalletEvent = { type: 'WalletAutoTopUpSucceeded', data: { ...triggered, amount, provider_payment_id: outcome.provider_payment_id, transaction_id: data.top_up_id } };
  const after = evolveWallet(evolveWallet(state, credit), succeeded) as ActiveWallet;
  return [credit, succeeded, ...topUpIfDue(after, derivedId(WALLET_TRANSACTION_ID_PREFIX, [state.id, 'auto_top_up', data.top_up_id]), data.top_up_id)];
}
