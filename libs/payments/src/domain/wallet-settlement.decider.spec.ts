import { COMMAND_REJECTED, TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { walletSettlementDecider } from './wallet-settlement.decider';

const spec = ProcessSpecification.for(walletSettlementDecider);
const wallet_id = 'wal_01JWALLET0000000000000000';
const finalized = (n: number, due_at: string) => ({ id: `evt_f${n}`, type: 'InvoiceFinalized' as const, data: { invoice_id: `inv_${n}`, wallet_id, due_at } });
const closed = (n: number) => ({ id: `evt_c${n}`, type: 'InvoiceClosed' as const, data: { invoice_id: `inv_${n}`, wallet_id } });
const credited = (transaction_id: string) => ({ id: `evt_${transaction_id}`, type: 'WalletCredited' as const, data: { wallet_id, transaction_id } });
const settle = (invoice_ids: string[], occasion: string) => ({ kind: 'command', command: { type: 'SettleOpenInvoices', data: { wallet_id, invoice_ids, occasion } } }) as const;

describe('wallet settlement process', () => {
  it('has a credit settle the open invoices, oldest due first', () =>
    spec.given([finalized(1, '2026-03-01T00:00:00.000Z'), finalized(2, '2026-02-01T00:00:00.000Z')]).when(credited('wtx_1')).then([settle(['inv_2', 'inv_1'], 'wtx_1')]));

  it('orders invoices due at the same moment by id', () =>
    spec.given([finalized(2, '2026-02-01T00:00:00.000Z'), finalized(1, '2026-02-01T00:00:00.000Z')]).when(credited('wtx_1')).then([settle(['inv_1', 'inv_2'], 'wtx_1')]));

  it('forgets an invoice once it is paid, voided or written off', () =>
    spec.given([finalized(1, '2026-03-01T00:00:00.000Z'), finalized(2, '2026-02-01T00:00:00.000Z'), closed(2)]).when(credited('wtx_2')).then([settle(['inv_1'], 'wtx_2')]));

  it('does nothing for a credit while no invoice is open', () => spec.given([finalized(1, '2026-03-01T00:00:00.000Z'), closed(1)]).when(credited('wtx_1')).thenNothingHappens());

  it('keeps an invoice finalised twice (a redelivery) once', () =>
    spec.given([finalized(1, '2026-03-01T00:00:00.000Z'), { ...finalized(1, '2026-03-01T00:00:00.000Z'), id: 'evt_again' }]).when(credited('wtx_1')).then([settle(['inv_1'], 'wtx_1')]));

  it('ignores timers and refusals', () => {
    spec.given([finalized(1, '2026-03-01T00:00:00.000Z')]).when({ id: 'timer:x', type: TIMER_FIRED, data: { timer_id: 'x' } }).thenNothingHappens();
    spec
      .given([finalized(1, '2026-03-01T00:00:00.000Z')])
      .when({ id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'SettleOpenInvoices', code: 'x', message: 'no' } })
      .thenNothingHappens();
  });
});
