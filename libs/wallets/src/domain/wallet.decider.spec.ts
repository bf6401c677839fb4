import { derivedId } from '@tally/kernel';
import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { walletDecider, type CreditWallet, type DebitWallet, type WalletCommand } from './wallet.decider';
import type { AutoTopUp, WalletCreated, WalletCredited, WalletDebited, WalletEvent } from './wallet.events';
import { walletTimers } from './wallet.timers';

const spec = DeciderSpecification.for(walletDecider, walletTimers);
const wallet_id = 'wal_1';
const customer = { wallet_id, customer_id: 'cus_1', currency: 'USD' };
const now = '2026-01-01T00:00:00.000Z';
const created: WalletCreated = { type: 'WalletCreated', data: { ...customer, auto_top_up: null, drift_floor: null, metadata: {} } };

const credit = (transaction_id: string, amount: string, external_id: string | null = null): CreditWallet => ({
  type: 'CreditWallet',
  data: { wallet_id, transaction_id, amount, reason: 'manual_topup', source: { type: 'manual', id: null }, external_id, description: null, now },
});
const debit = (transaction_id: string, amount: string, partial = false): DebitWallet => ({
  type: 'DebitWallet',
  data: { wallet_id, transaction_id, amount, reason: 'manual', source: { type: 'manual', id: null }, external_id: null, description: null, partial, now },
});
const transaction = (command: CreditWallet | DebitWallet, amount: string, balance_after: string) => {
  const { wallet_id: _w, now: created_at, partial: _p, ...fields } = command.data as DebitWallet['data'];
  return { ...fields, amount, balance_after, created_at };
};
const credited = (command: CreditWallet, balance_after: string): WalletCredited => ({
  type: 'WalletCredited',
  data: { ...customer, transaction: { ...transaction(command, command.data.amount, balance_after), type: 'credit', reason: command.data.reason } },
});
const debited = (command: DebitWallet, amount: string, balance_after: string): WalletDebited => ({
  type: 'WalletDebited',
  data: { ...customer, transaction: { ...transaction(command, amount, balance_after), type: 'debit', reason: command.data.reason } },
});

describe('wallet decider', () => {
  describe('CreateWallet', () => {
    it('creates the wallet once', () => {
      spec.given([]).when({ type: 'CreateWallet', data: created.data }).then([created]);
      spec.given([created]).when({ type: 'CreateWallet', data: created.data }).thenNothingHappens();
    });

    it('refuses a currency that is not ISO 4217 and a drift floor finer than the minor unit', () => {
      spec.given([]).when({ type: 'CreateWallet', data: { ...created.data, currency: 'usd' } }).thenFails('money.unknown_currency');
      spec.given([]).when({ type: 'CreateWallet', data: { ...created.data, drift_floor: '1.005' } }).thenFails('wallet.invalid_amount');
    });
  });

  describe('CreditWallet', () => {
    it('posts the amount with the balance after it', () => spec.given([created]).when(credit('wtx_1', '10.50')).then([credited(credit('wtx_1', '10.50'), '10.50')]));

    it('refuses a zero, negative or sub-cent amount, and one on a wallet that does not exist', () => {
      for (const amount of ['0', '-1.00', '0.001', '1e3', 'ten']) spec.given([created]).when(credit('wtx_1', amount)).thenFails('wallet.invalid_amount');
      spec.given([]).when(credit('wtx_1', '1.00')).thenFails('wallet.not_found');
    });

    it('posts a transaction id once', () => spec.given([created, credited(credit('wtx_1', '5.00'), '5.00')]).when(credit('wtx_1', '5.00')).thenNothingHappens());

    it('answers a replayed external_id with nothing new, and refuses it with another amount', () => {
      const first = credited(credit('wtx_1', '5.00', 'ext-1'), '5.00');
      spec.given([created, first]).when(credit('wtx_2', '5.00', 'ext-1')).thenNothingHappens();
      spec.given([created, first]).when(credit('wtx_2', '6.00', 'ext-1')).thenFails('wallet.external_id_conflict');
    });
  });

  describe('DebitWallet', () => {
    const funded = [created, credited(credit('wtx_1', '10.00'), '10.00')];

    it('debits down to zero and refuses below it', () => {
      spec.given(funded).when(debit('wtx_2', '10.00')).then([debited(debit('wtx_2', '10.00'), '10.00', '0.00')]);
      spec.given(funded).when(debit('wtx_2', '10.01')).thenFails('wallet.insufficient_balance');
    });

    it('a partial debit takes what there is, and is refused only at zero', () => {
      spec.given(funded).when(debit('wtx_2', '25.00', true)).then([debited(debit('wtx_2', '25.00', true), '10.00', '0.00')]);
      spec.given([...funded, debited(debit('wtx_2', '10.00'), '10.00', '0.00')]).when(debit('wtx_3', '1.00', true)).thenFails('wallet.insufficient_balance');
    });
  });

  describe('auto top-up', () => {
    const rule: AutoTopUp = { enabled: true, trigger_at: '5.00', amount: '10.00', payment_method_id: 'pm_1' };
    const withRule: WalletEvent[] = [{ ...created, data: { ...created.data, auto_top_up: rule } }, credited(credit('wtx_1', '20.00'), '20.00')];
    const topUpId = derivedId('wtx', [wallet_id, 'auto_top_up', 'wtx_2']);
    const triggered: WalletEvent = {
      type: 'WalletAutoTopUpTriggered',
      data: { ...customer, top_up_id: topUpId, amount: '30.00', payment_method_id: 'pm_1', trigger_transaction_id: 'wtx_2' },
    };

    it('a debit to at or below the trigger charges amount × k, the smallest k that gets above it', () =>
      // 0.50 left, 4.50 short of the trigger: one increment of 10.00 gets above it.
      spec.given(withRule).when(debit('wtx_2', '19.50')).then([debited(debit('wtx_2', '19.50'), '19.50', '0.50'), { ...triggered, data: { ...triggered.data, amount: '10.00' } }]));

    it('takes as many increments as the shortfall needs, in one charge (25.00 short: 3 × 10.00)', () => {
      const bigRule = [{ ...created, data: { ...created.data, auto_top_up: { ...rule, trigger_at: '25.00' } } }, credited(credit('wtx_1', '20.00'), '20.00')];
      spec.given(bigRule).when(debit('wtx_2', '20.00')).then([debited(debit('wtx_2', '20.00'), '20.00', '0.00'), triggered]);
    });

    it('charges nothing more while a top-up is under way', () =>
      spec.given([...withRule, debited(debit('wtx_2', '19.50'), '19.50', '0.50'), triggered]).when(debit('wtx_3', '0.50')).then([debited(debit('wtx_3', '0.50'), '0.50', '0.00')]));

    it('a success credits the top-up under its id; a decline backs off an hour, then doubles', () => {
      const pending = [...withRule, debited(debit('wtx_2', '19.50'), '19.50', '0.50'), triggered];
      const succeeded: WalletCommand = { type: 'RecordAutoTopUpOutcome', data: { wallet_id, top_up_id: topUpId, outcome: { status: 'succeeded', payment_id: 'pay_1' }, now } };
      const creditEvent: WalletCredited = {
        type: 'WalletCredited',
        data: { ...customer, transaction: { transaction_id: topUpId, type: 'credit', amount: '30.00', balance_after: '30.50', reason: 'auto_topup', source: { type: 'payment', id: 'pay_1' }, external_id: null, description: 'Auto top-up', created_at: now } },
      };
      const { trigger_transaction_id: _t, ...topUp } = triggered.data as Extract<WalletEvent, { type: 'WalletAutoTopUpTriggered' }>['data'];
      const succeededEvent: WalletEvent = { type: 'WalletAutoTopUpSucceeded', data: { ...topUp, payment_id: 'pay_1', transaction_id: topUpId } };
      spec.given(pending).when(succeeded).then([creditEvent, succeededEvent]);
      spec.given([...pending, creditEvent, succeededEvent]).when(succeeded).thenNothingHappens();

      const declined: WalletCommand = { type: 'RecordAutoTopUpOutcome', data: { wallet_id, top_up_id: topUpId, outcome: { status: 'failed', code: 'card_declined', message: 'Declined' }, now } };
      const retry_at = '2026-01-01T01:00:00.000Z';
      const failed: WalletEvent = { type: 'WalletAutoTopUpFailed', data: { ...topUp, last_error: { code: 'card_declined', message: 'Declined' }, retry_at } };
      spec.given(pending).when(declined).then([failed]);
      spec.given(pending).when(declined).thenTimers(now, [{ schedule: { name: `auto_top_up_retry:${retry_at}`, due_at: retry_at, command: { type: 'RetryAutoTopUp', data: { wallet_id, retry_at } } } }]);
    });

    it('no debit storms the provider during the back-off; its end tries once more', () => {
      const retry_at = '2026-01-01T01:00:00.000Z';
      const { trigger_transaction_id: _t, ...topUp } = triggered.data as Extract<WalletEvent, { type: 'WalletAutoTopUpTriggered' }>['data'];
      const backingOff = [...withRule, debited(debit('wtx_2', '19.50'), '19.50', '0.50'), triggered, { type: 'WalletAutoTopUpFailed', data: { ...topUp, last_error: { code: 'card_declined', message: 'Declined' }, retry_at } } as WalletEvent];
      spec.given(backingOff).when(debit('wtx_3', '0.50')).then([debited(debit('wtx_3', '0.50'), '0.50', '0.00')]);
      const retryId = derivedId('wtx', [wallet_id, 'auto_top_up_retry', retry_at]);
      spec
        .given(backingOff)
        .when({ type: 'RetryAutoTopUp', data: { wallet_id, retry_at } })
        .then([{ type: 'WalletAutoTopUpTriggered', data: { ...customer, top_up_id: retryId, amount: '10.00', payment_method_id: 'pm_1', trigger_transaction_id: wallet_id } }]);
    });
  });

  describe('drift floor', () => {
    const floored: WalletEvent[] = [{ ...created, data: { ...created.data, drift_floor: '5.00' } }, credited(credit('wtx_1', '10.00'), '10.00')];
    const below = { type: 'WalletBelowDriftFloor', data: { ...customer, drift_floor: '5.00', balance: '4.00' } } as const;

    it('fires once when a debit takes the balance below the floor, and again only after it was back at or above it', () => {
      const firstDrop = debited(debit('wtx_2', '6.00'), '6.00', '4.00');
      spec.given(floored).when(debit('wtx_2', '6.00')).then([firstDrop, below]);
      spec.given([...floored, firstDrop, below]).when(debit('wtx_3', '1.00')).then([debited(debit('wtx_3', '1.00'), '1.00', '3.00')]);
      const back = credited(credit('wtx_3', '1.00'), '5.00');
      spec.given([...floored, firstDrop, below, back]).when(debit('wtx_4', '1.00')).then([debited(debit('wtx_4', '1.00'), '1.00', '4.00'), below]);
    });
  });
});
