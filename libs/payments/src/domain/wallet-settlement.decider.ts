import { assertNever, COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessOutput, type TimerFired } from '@tally/kernel';

export type WalletSettlementInput =
  /** An invoice finalised naming the customer's wallet in its currency: it waits for the wallet's money until it closes. */
  | ProcessInput<'InvoiceFinalized', { invoice_id: string; wallet_id: string; due_at: string }>
  /** Paid, voided or written off: nothing more is settled on it. */
  | ProcessInput<'InvoiceClosed', { invoice_id: string; wallet_id: string }>
  /** Money reached the wallet (`transaction_id`: its credit). */
  | ProcessInput<'WalletCredited', { wallet_id: string; transaction_id: string }>;

/** Settle the invoices named, in this order, from the wallet, as far as its balance goes; `occasion` makes each settlement's payment id. */
export type SettleOpenInvoices = { type: 'SettleOpenInvoices'; data: { wallet_id: string; invoice_ids: string[]; occasion: string } };

/** The open invoices the wallet settles, oldest due first (then by id, for a stable order). */
export interface WalletSettlementState {
  open: readonly { invoice_id: string; due_at: string }[];
}

type Output = ProcessOutput<SettleOpenInvoices>;

const byDue = (a: { invoice_id: string; due_at: string }, b: { invoice_id: string; due_at: string }) =>
  a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.invoice_id < b.invoice_id ? -1 : a.invoice_id > b.invoice_id ? 1 : 0;

/**
 * One process per wallet: it knows the open invoices the wallet settles (those finalised naming
 * it, until they close) and, when money reaches the wallet, has them settled oldest due first.
 * Finalisation settles an invoice itself; this is for money that arrives while invoices are open.
 */
export const walletSettlementDecider: ProcessDecider<WalletSettlementState, WalletSettlementInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ open: [] }),

  evolve(state, message) {
    if (message.kind !== 'input') return state;
    const { input } = message;
    switch (input.type) {
      case 'InvoiceFinalized': {
        const { invoice_id, due_at } = input.data;
        if (state.open.some((invoice) => invoice.invoice_id === invoice_id)) return state;
        return { open: [...state.open, { invoice_id, due_at }].sort(byDue) };
      }
      case 'InvoiceClosed':
        return { open: state.open.filter((invoice) => invoice.invoice_id !== input.data.invoice_id) };
      case 'WalletCredited':
      case TIMER_FIRED:
      case COMMAND_REJECTED:
        return state;
      default:
        return assertNever(input);
    }
  },

  decide(input, state) {
    if (input.type !== 'WalletCredited' || state.open.length === 0) return [];
    const { wallet_id, transaction_id } = input.data;
    return [{ kind: 'command', command: { type: 'SettleOpenInvoices', data: { wallet_id, invoice_ids: state.open.map((invoice) => invoice.invoice_id), occasion: transaction_id } } }];
  },
};
