/** The read model collection of invoices (the invoice aggregate's resource view). */
export const INVOICES_COLLECTION = 'invoices';

/**
 * What the documents of an invoice (its PDF and its revenue recognition schedule) read of the
 * invoice resource: a structural subset of the read model document and API response, money as
 * decimal strings. Fields the documents do not use may be present and are ignored.
 */
export type InvoiceDocumentInput = {
  [field: string]: unknown;
  id: string;
  object: 'invoice';
  number: string | null;
  customer_id: string;
  subscription_id: string | null;
  currency: string;
  status: 'draft' | 'open' | 'partially_paid' | 'paid' | 'void' | 'uncollectible';
  description: string | null;
  period_start: string;
  period_end: string;
  issued_at: string | null;
  due_at: string | null;
  lines: InvoiceDocumentLine[];
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  amount_paid: string;
  amount_due: string;
  tax_breakdown: InvoiceDocumentTax[];
  discounts: InvoiceDocumentDiscount[];
  credit_notes: InvoiceDocumentCreditNote[];
  livemode: boolean;
  created_at: string;
};

export interface InvoiceDocumentLine {
  id: string;
  code: string | null;
  description: string | null;
  quantity: string;
  unit_amount: string;
  amount: string;
  period_start: string;
  period_end: string;
  proration: boolean;
  discount_amount: string;
  tax_amount: string;
  tax_rate: string | null;
}

/** A tax breakdown entry as the API shows it (libs/tax's TaxBreakdownEntry with decimal strings). */
export interface InvoiceDocumentTax {
  jurisdiction: string;
  country?: string;
  region?: string | null;
  tax_type: string;
  rate: string;
  taxability_reason?: string;
  taxable_amount: string;
  tax_amount: string;
}

/** A discount applied to the invoice; only what the PDF prints. */
export interface InvoiceDocumentDiscount {
  coupon_id?: string | null;
  coupon?: string | null;
  code?: string | null;
  level?: string | null;
  amount: string;
}

export interface InvoiceDocumentCreditNote {
  id: string;
  number: string | null;
  amount: string;
  reason: string | null;
  memo: string | null;
  lines: { line_id: string; amount: string }[];
  created_at: string;
}

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
