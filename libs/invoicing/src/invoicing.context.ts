import type { ContextManifest } from '@tally/runtime';
import { creditNoteProjection } from './credit-notes/credit-note.projection';
import { CreditNoteNumberingReaction } from './credit-notes/credit-note-numbering.reaction';
import { invoiceUpcasters } from './domain/invoice.upcasters';
import { CREDIT_NOTE_NUMBER_SEQUENCE_PREFIX, INVOICE_ID_PREFIX, INVOICE_NUMBER_SEQUENCE_PREFIX } from './invoice.aggregate';
import { InvoiceNumberingReaction } from './invoice-numbering.reaction';
import { invoiceResource } from './invoice.resource';
import { InvoicingModule } from './invoicing.module';
import { INVOICES_SECTION } from './invoicing.api-sections';

/** Invoices (drafts, finalisation with gap-free numbers, payments applied, credit notes), their lines, discounts and totals, and the invoice preview. */
export const invoicingContext: ContextManifest = {
  name: 'invoicing',
  apiSections: [INVOICES_SECTION],
  module: InvoicingModule,
  projections: [invoiceResource.projection, creditNoteProjection],
  reactions: [InvoiceNumberingReaction, CreditNoteNumberingReaction],
  upcasters: invoiceUpcasters,
  aggregateTypes: [
    { idPrefix: INVOICE_ID_PREFIX, type: 'invoice' },
    { idPrefix: INVOICE_NUMBER_SEQUENCE_PREFIX, type: 'invoice_number_sequence' },
    { idPrefix: CREDIT_NOTE_NUMBER_SEQUENCE_PREFIX, type: 'credit_note_number_sequence' },
  ],
};
