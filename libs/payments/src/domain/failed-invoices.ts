import { assertNever, type Command, type Decider, type Event } from '@tally/kernel';

/**
 * A customer's subscription invoices whose payment failed, the write side's index that a new
 * default method retries from (a read model may lag; a write decides from the event store). An
 * invoice enters with its failed payment and leaves once a retry finds nothing left to collect.
 */
export type FailedInvoiceRecorded = Event<'FailedInvoiceRecorded', { customer_id: string; invoice_id: string }>;
export type FailedInvoicesForgotten = Event<'FailedInvoicesForgotten', { customer_id: string; invoice_ids: string[] }>;
export type FailedInvoicesEvent = FailedInvoiceRecorded | FailedInvoicesForgotten;

export type RecordFailedInvoice = Command<'RecordFailedInvoice', { customer_id: string; invoice_id: string }>;
export type ForgetFailedInvoices = Command<'ForgetFailedInvoices', { customer_id: string; invoice_ids: readonly string[] }>;
export type FailedInvoicesCommand = RecordFailedInvoice | ForgetFailedInvoices;

export interface FailedInvoicesState {
  invoiceIds: readonly string[];
}

export const failedInvoicesDecider: Decider<FailedInvoicesState, FailedInvoicesCommand, FailedInvoicesEvent> = {
  initialState: () => ({ invoiceIds: [] }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordFailedInvoice':
        return state.invoiceIds.includes(command.data.invoice_id) ? [] : [{ type: 'FailedInvoiceRecorded', data: command.data }];
      case 'ForgetFailedInvoices': {
        const invoice_ids = command.data.invoice_ids.filter((invoiceId) => state.invoiceIds.includes(invoiceId));
        return invoice_ids.length === 0 ? [] : [{ type: 'FailedInvoicesForgotten', data: { customer_id: command.data.customer_id, invoice_ids } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'FailedInvoiceRecorded':
        return { invoiceIds: [...state.invoiceIds, event.data.invoice_id] };
      case 'FailedInvoicesForgotten':
        return { invoiceIds: state.invoiceIds.filter((invoiceId) => !event.data.invoice_ids.includes(invoiceId)) };
      default:
        return assertNever(event);
    }
  },
};
