import { assertNever, type Command, type Decider, type Event } from '@tally/kernel';
import type { IssueInvoice } from './invoice.decider';

/**
 * The gap-free invoice numbers of one tenant and environment: one stream whose events each take
 * the next number for one invoice, appended with the expected revision, so two finalisations never
 * take the same number and none is skipped. Every reservation ends on its invoice: the finaliser
 * that reserved it finalises with it, or the invoice-numbering reaction does (docs/decisions.md).
 */
export type InvoiceNumberReserved = Event<'InvoiceNumberReserved', { invoice_id: string; sequence: number; number: string; issue?: InvoiceIssue }>;

/**
 * An invoice created and finalised in one append once its number is reserved: the reservation
 * carries it (and the test clock it lives on), so the numbering reaction can issue it when a
 * crash came between the two appends.
 */
export interface InvoiceIssue {
  command: Omit<IssueInvoice['data'], 'number'>;
  clock_id: string | null;
}
export type InvoiceNumberSequenceEvent = InvoiceNumberReserved;

/**
 * The next numbers, in the order given, for the invoices that have none reserved yet (a burst of
 * finalisations reserves together), each with the issue it is for, if any (an existing draft's
 * finalisation has none). `prefix`: the tenant's invoice prefix (see invoiceNumberPrefix).
 */
export type ReserveInvoiceNumbers = Command<'ReserveInvoiceNumbers', { invoices: readonly { invoice_id: string; issue?: InvoiceIssue }[]; prefix: string }>;
export type InvoiceNumberSequenceCommand = ReserveInvoiceNumbers;

/**
 * Small whatever the number of invoices: the last number, and the last reservations, so that a
 * finalisation retried after a crash (its invoice still a draft) takes the number it reserved
 * before rather than a new one. Older reservations have been finalised by the numbering process.
 */
export interface InvoiceNumberSequenceState {
  last: number;
  recent: readonly { invoice_id: string; number: string }[];
}

/** How many recent reservations the sequence remembers: more than one reservation takes at once (MAX_RESERVED_AT_ONCE). */
export const RECENT_RESERVATIONS = 256;

/** `<prefix>-000042`: the sequence zero-padded to 6 digits (more digits after 999999). */
export const formatInvoiceNumber = (prefix: string, sequence: number): string => `${prefix}-${String(sequence).padStart(6, '0')}`;

export const invoiceNumberSequenceDecider: Decider<InvoiceNumberSequenceState, InvoiceNumberSequenceCommand, InvoiceNumberSequenceEvent> = {
  initialState: () => ({ last: 0, recent: [] }),

  decide(command, state) {
    switch (command.type) {
      case 'ReserveInvoiceNumbers': {
        const { invoices, prefix } = command.data;
        const reserved = new Set(state.recent.map((reservation) => reservation.invoice_id));
        const events: InvoiceNumberReserved[] = [];
        for (const { invoice_id, issue } of invoices) {
          if (reserved.has(invoice_id)) continue;
          reserved.add(invoice_id);
          const sequence = state.last + events.length + 1;
          events.push({ type: 'InvoiceNumberReserved', data: { invoice_id, sequence, number: formatInvoiceNumber(prefix, sequence), ...(issue && { issue }) } });
        }
        return events;
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    const { invoice_id, sequence, number } = event.data;
    return { last: sequence, recent: [...state.recent.slice(-(RECENT_RESERVATIONS - 1)), { invoice_id, number }] };
  },
};

/** The number reserved for the invoice, if the sequence still remembers it. */
export const reservedNumberOf = (state: InvoiceNumberSequenceState, invoiceId: string): string | undefined =>
  state.recent.find((reservation) => reservation.invoice_id === invoiceId)?.number;
