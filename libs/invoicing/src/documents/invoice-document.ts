import type { CreditNoteResource, InvoiceLineResource, InvoiceResource } from '../invoice.view';
/** The read model collection of invoices (the invoice aggregate's resource view). */
export const INVOICES_COLLECTION = 'invoices';

/** What the documents of an invoice (its PDF and its revenue recognition schedule) read: the invoice resource. */
export type InvoiceDocumentInput = InvoiceResource;
export type InvoiceDocumentLine = InvoiceLineResource;
export type InvoiceDocumentCreditNote = CreditNoteResource;

/** Who the invoice is from and to, as printed: the tenant, and the customer's billing details. */
export interface InvoiceParties {
  seller: { name: string };
  /** null when the customer is gone from the read model (deleted). */
  customer: { id: string; name: string | null; email: string | null; address: InvoiceAddress | null } | null;
}

export interface InvoiceAddress {
  line1: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}
