import { assertNever, COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessOutput, type TimerFired } from '@tally/kernel';

export type WalletSettlementInput =
  /**
   * An invoice of the customer in the currency waits for money: finalised naming the customer's
   * wallet or with nothing to collect it, or its charge failed or was canceled. It waits until it closes.
   */
  | ProcessInput<'InvoiceAwaitingPayment', { invoice_id: string }>
  /** Paid, voided or written off: nothing more is settled on it. */
  | ProcessInput<'InvoiceClosed', { invoice_id: string }>
  /** Money reached the customer's wallet in the currency (`transaction_id`: its credit). */
  | ProcessInput<'WalletCredited', { wallet_id: string; transaction_id: string }>;

/** Settle the invoices named from the wallet, oldest due first, as far as its balance goes; `occasion` makes each settlement's payment id. */
export type SettleOpenInvoices = { type: 'SettleOpenInvoices'; data: { wallet_id: string; invoice_ids: string[]; occasion: string } };

/** The customer's invoices in the currency that wait for money, in the order they began to wait. */
export interface WalletSettlementState {
  open: readonly string[];
}

type Output = ProcessOutput<SettleOpenInvoices>;

/**
 * One process per customer and currency: it knows the customer's invoices in that currency that
 * wait for money, until they close, and has them settled from the wallet when money reaches it,
 * whether the wallet existed when they were finalised or not. Finalisation settles an invoice from
 * a funded wallet itself; this is for money that arrives while invoices are open.
 */
export const walletSettlementDecider: ProcessDecider<WalletSettlementState, WalletSettlementInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ open: [] }),

  evolve(state, message) {
    if (message.kind !== 'input') return state;
    const { input } = message;
    switch (input.type) {
      case 'InvoiceAwaitingPayment':
        return state.open.includes(input.data.invoice_id) ? state : { open: [...state.open, input.data.invoice_id] };
      case 'InvoiceClosed':
        return { open: state.open.filter((invoiceId) => invoiceId !== input.data.invoice_id) };
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
    return [{ kind: 'command', command: { type: 'SettleOpenInvoices', data: { wallet_id, invoice_ids: [...state.open], occasion: transaction_id } } }];
  },
};
