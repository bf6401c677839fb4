import type { RecordedEvent } from '@tally/eventstore';
import type { CommandRuntime, Commands } from '@tally/runtime';
import type { CustomerWallets } from '@tally/wallets';
import { WalletReturnsReaction } from './wallet-returns.reaction';

const reaction = new WalletReturnsReaction({} as CommandRuntime, {} as Commands, {} as CustomerWallets);
const recorded = (type: string, data: object) => ({ id: 'evt_1', type, data, metadata: {}, stream: 'invoice-inv_1', revision: 1, position: 1n }) as unknown as RecordedEvent;
const totals = (total: string) => ({ lines: [], subtotal: total, discount: '0', tax: '0', total, tax_breakdown: [], discounts: [], tax_table_version: null, reverse_charge: false });
const creditNote = (outcome?: object) => ({
  invoice_id: 'inv_1',
  credit_note_id: 'cn_1',
  number: 'A-1-CN-01',
  amount: '7.50',
  reason: 'order_change',
  memo: null,
  lines: [],
  pre_payment: false,
  created_at: '2026-05-01T10:00:00.000Z',
  ...(outcome && { outcome }),
});

describe('wallet returns reaction', () => {
  it('credits a negative total to the wallet, and nothing for a total of zero or more', () => {
    expect(reaction.commandOf(recorded('InvoiceFinalized', { invoice_id: 'inv_1', number: 'A-1', issued_at: 'x', due_at: 'x', totals: totals('-5.00') }))).toEqual({
      lane: 'inv_1',
      command: { type: 'CreditNegativeTotal', data: { invoice_id: 'inv_1', amount: '5' } },
    });
    expect(reaction.commandOf(recorded('InvoiceFinalized', { invoice_id: 'inv_1', number: 'A-1', issued_at: 'x', due_at: 'x', totals: totals('0') }))).toBeUndefined();
    expect(reaction.commandOf(recorded('InvoiceFinalized', { invoice_id: 'inv_1', number: 'A-1', issued_at: 'x', due_at: 'x', totals: totals('5.00') }))).toBeUndefined();
  });

  it('returns to the wallet what it paid on a voided invoice, and nothing for a void the wallet paid nothing of', () => {
    expect(reaction.commandOf(recorded('InvoiceVoided', { invoice_id: 'inv_1', wallet_id: 'wal_1', wallet_returned: '10' }))).toEqual({
      lane: 'inv_1',
      command: { type: 'ReturnVoidedSettlement', data: { invoice_id: 'inv_1', wallet_id: 'wal_1', amount: '10' } },
    });
    expect(reaction.commandOf(recorded('InvoiceVoided', { invoice_id: 'inv_1', wallet_id: 'wal_1' }))).toBeUndefined();
    expect(reaction.commandOf(recorded('InvoiceVoided', { invoice_id: 'inv_1' }))).toBeUndefined();
  });

  it('credits a credit note whose outcome is credit_balance, and no other', () => {
    expect(reaction.commandOf(recorded('CreditNoteIssued', creditNote({ kind: 'credit_balance', refund_status: null })))).toEqual({
      lane: 'inv_1',
      command: { type: 'CreditCreditNote', data: { invoice_id: 'inv_1', credit_note_id: 'cn_1', amount: '7.50' } },
    });
    expect(reaction.commandOf(recorded('CreditNoteIssued', creditNote({ kind: 'refund', refund_status: 'pending' })))).toBeUndefined();
    expect(reaction.commandOf(recorded('CreditNoteIssued', creditNote({ kind: 'none', refund_status: null })))).toBeUndefined();
    expect(reaction.commandOf(recorded('CreditNoteIssued', creditNote()))).toBeUndefined();
  });

  it('leaves a credit-balance credit note a refund to the wallet issued to that refund, which credits the wallet itself', () => {
    expect(reaction.commandOf(recorded('CreditNoteIssued', { ...creditNote({ kind: 'credit_balance', refund_status: null }), refund_id: 'rfd_1', payment_id: 'pay_1' }))).toBeUndefined();
  });
});
