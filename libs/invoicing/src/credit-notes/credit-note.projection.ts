import { asEventOf, type Projection } from '@tally/runtime';
import type { Doc } from '@tally/readstore';
import { scopedIndex } from '@tally/runtime';
import type { CreditNoteIssued, InvoiceCreated, InvoiceEvent } from '../domain/invoice.events';
import { creditNoteChanged, creditNoteIssued, type CreditNoteInvoice, type CreditNoteResource } from './credit-note.view';

export const CREDIT_NOTES = 'credit_notes';
/** What the projection keeps of each invoice: what its credit notes show of it. */
const CREDIT_NOTE_INVOICES = 'credit_note_invoices';

type Scoped = { tenant_id: string; environment: string; stream_revision: number };

/**
 * Credit notes as a resource of their own, one document each, from their invoices' events: the
 * same fold as the invoice's `credit_notes` (credit-note.view.ts), listed by invoice and customer.
 * Its public events are the invoice's (`credit_note.created`, `credit_note.refund_failed`).
 */
export const creditNoteProjection: Projection = {
  name: CREDIT_NOTES,
  streamPrefixes: ['invoice-'],
  collections: [
    { name: CREDIT_NOTES, indexes: [scopedIndex('created_at'), scopedIndex('invoice_id', 'created_at'), scopedIndex('customer_id', 'created_at')] },
    { name: CREDIT_NOTE_INVOICES, indexes: [] },
  ],
  async handle(recorded, writer) {
    const event = asEventOf<InvoiceEvent>(recorded);
    const scope = { tenant_id: event.metadata.tenant_id, environment: event.metadata.environment, stream_revision: event.revision };
    switch (event.type) {
      case 'InvoiceCreated': {
        const { invoice_id, customer_id, currency } = (event as InvoiceCreated).data;
        writer.upsert(CREDIT_NOTE_INVOICES, { id: invoice_id, customer_id, currency } satisfies CreditNoteInvoice & Doc);
        return;
      }
      case 'CreditNoteIssued': {
        const data = (event as CreditNoteIssued).data;
        const invoice = await writer.get<CreditNoteInvoice & Doc>(CREDIT_NOTE_INVOICES, data.invoice_id);
        if (!invoice) throw new Error(`Credit note ${data.credit_note_id} of invoice ${data.invoice_id}, whose creation was not seen`);
        writer.upsert(CREDIT_NOTES, { ...creditNoteIssued(invoice, data), ...scope });
        return;
      }
      case 'CreditNoteRefundUpdated':
      case 'CreditNoteRefundFailed':
      case 'CreditNoteResolved': {
        const stored = await writer.get<CreditNoteResource & Scoped & Doc>(CREDIT_NOTES, event.data.credit_note_id);
        if (stored) writer.upsert(CREDIT_NOTES, { ...creditNoteChanged(stored, event), ...scope });
        return;
      }
      default:
        return;
    }
  },
};
