import { COMMAND_REJECTED, TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { walletSettlementDecider } from './wallet-settlement.decider';

const spec = ProcessSpecification.for(walletSettlementDecider);
const wallet_id = 'wal_01JWALLET0000000000000000';
const awaiting = (n: number, occasion = 'finalized') => ({ id: `evt_${occasion}_${n}`, type: 'InvoiceAwaitingPayment' as const, data: { invoice_id: `inv_${n}` } });
const closed = (n: number) => ({ id: `evt_c${n}`, type: 'InvoiceClosed' as const, data: { invoice_id: `inv_${n}` } });
const credited = (transaction_id: string) => ({ id: `evt_${transaction_id}`, type: 'WalletCredited' as const, data: { wallet_id, transaction_id } });
const settle = (invoice_ids: string[], occasion: string) => ({ kind: 'command', command: { type: 'SettleOpenInvoices', data: { wallet_id, invoice_ids, occasion } } }) as const;

describe('wallet settlement process', () => {
  it('has a credit settle the invoices that wait for money, the credit naming the wallet', () =>
    spec.given([awaiting(1), awaiting(2)]).when(credited('wtx_1')).then([settle(['inv_1', 'inv_2'], 'wtx_1')]));

  it('forgets an invoice once it is paid, voided or written off', () => spec.given([awaiting(1), awaiting(2), closed(2)]).when(credited('wtx_2')).then([settle(['inv_1'], 'wtx_2')]));

  it('does nothing for a credit while no invoice waits', () => spec.given([awaiting(1), closed(1)]).when(credited('wtx_1')).thenNothingHappens());

  it('keeps an invoice that begins to wait again (a redelivery, a failed charge of an invoice already waiting) once', () =>
    spec.given([awaiting(1), { ...awaiting(1), id: 'evt_again' }, awaiting(1, 'failed')]).when(credited('wtx_1')).then([settle(['inv_1'], 'wtx_1')]));

  it('settles nothing when an invoice begins to wait: finalisation settles from a funded wallet, and a pay request from any', () =>
    spec.given([credited('wtx_1')]).when(awaiting(1, 'failed')).thenNothingHappens());

  it('ignores timers and refusals', () => {
    spec.given([awaiting(1)]).when({ id: 'timer:x', type: TIMER_FIRED, data: { timer_id: 'x' } }).thenNothingHappens();
    spec
      .given([awaiting(1)])
      .when({ id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'SettleOpenInvoices', code: 'x', message: 'no' } })
      .thenNothingHappens();
  });
});
