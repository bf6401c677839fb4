import Big from 'big.js';
import { formatAmount, keyedObject } from '@tally/kernel';
import { defineView, type StampedResource } from '@tally/runtime';
import type { TaxBehavior } from '@tally/tax/published';
import type { DiscountLevel } from './domain/discounts';
import { creditNoteChanged, creditNoteIssued, type CreditNoteResource } from './credit-notes/credit-note.view';
import type {
  BillingReason,
  InvoiceEvent,
  InvoiceLineData,
  InvoiceStatus,
  InvoiceTotalsData,
  TaxBreakdownData,
} from './domain/invoice.events';

/** A line as the API shows it: as the draft holds it, with its id, discount and tax (a type, so it is a read-store document). */
export type InvoiceLineResource = Omit<InvoiceLineData, 'line_id' | 'tax_code' | 'metadata'> & {
  id: string;
  object: 'line_item';
  discount_amount: string;
  tax_amount: string;
  tax_rate: string;
  metadata: Record<string, string>;
};


export interface InvoiceResource extends StampedResource {
  object: 'invoice';
  /** Assigned at finalisation from the tenant's gap-free sequence. */
  number: string | null;
  customer_id: string;
  subscription_id: string | null;
  billing_reason: BillingReason;
  currency: string;
  presentment_currency: string;
  settlement_currency: string;
  fx_rate: null;
  fx_rate_source: null;
  fx_rate_locked_at: null;
  status: InvoiceStatus;
  auto_charge: boolean;
  description: string | null;
  tax_behavior: TaxBehavior;
  period_start: string | null;
  period_end: string | null;
  /** Finalisation time. */
  issued_at: string | null;
  due_at: string | null;
  /** On a draft without a due date: how many days after finalisation it will be due. */
  days_until_due: number | null;
  lines: InvoiceLineResource[];
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  amount_paid: string;
  amount_due: string;
  tax_breakdown: TaxBreakdownData[];
  discounts: { coupon_id: string; level: DiscountLevel; amount: string }[];
  payments: string[];
  credit_notes: CreditNoteResource[];
  /** Filled when the invoice is answered (a signed, short-lived link); null in the read model. */
  pdf_url: string | null;
  metadata: Record<string, string>;
}

export type { CreditNoteResource } from './credit-notes/credit-note.view';

/** The invoice as the API shows it, folded from its events; money as decimal strings in the currency's minor units. */
export const invoiceView = defineView<InvoiceResource, InvoiceEvent, 'InvoiceCreated'>({
  object: 'invoice',
  created: {
    type: 'InvoiceCreated',
    fields: (data) => ({
      number: null,
      customer_id: data.customer_id,
      subscription_id: data.subscription_id,
      billing_reason: data.billing_reason,
      currency: data.currency,
      presentment_currency: data.currency,
      settlement_currency: data.currency,
      fx_rate: null,
      fx_rate_source: null,
      fx_rate_locked_at: null,
      status: 'draft',
      auto_charge: data.auto_charge,
      description: data.description,
      tax_behavior: data.tax_behavior,
      period_start: data.period_start,
      period_end: data.period_end,
      issued_at: null,
      due_at: data.due_at,
      days_until_due: data.days_until_due,
      ...draftTotals(
        data.lines.map((line) => lineResource(line, data.currency)),
        data.currency,
      ),
      amount_paid: formatAmount(new Big(0), data.currency),
      payments: [],
      credit_notes: [],
      pdf_url: null,
      metadata: data.metadata,
    }),
  },
  changes: {
    InvoiceDraftUpdated: (_invoice, { invoice_id: _id, metadata, ...changes }) => ({ ...changes, ...(metadata !== undefined && { metadata }) }),
    InvoiceLineAdded: (invoice, { line }) => draftTotals([...invoice.lines, lineResource(line, invoice.currency)], invoice.currency),
    InvoiceLineRemoved: (invoice, { line_id }) =>
      draftTotals(
        invoice.lines.filter((line) => line.id !== line_id),
        invoice.currency,
      ),
    InvoiceTaxComputed: (invoice, { totals }) => withTotals(invoice, totals),
    InvoiceFinalized: (invoice, { number, issued_at, due_at, totals }) => ({ ...withTotals(invoice, totals), status: 'open', number, issued_at, due_at, days_until_due: null }),
    InvoicePaymentApplied: (invoice, { payment_id, amount }) => ({
      status: 'partially_paid',
      amount_paid: formatAmount(new Big(invoice.amount_paid).plus(amount), invoice.currency),
      amount_due: formatAmount(new Big(invoice.amount_due).minus(amount), invoice.currency),
      payments: withPayment(invoice.payments, payment_id),
    }),
    InvoicePaymentStarted: (invoice, { payment_id }) => ({ payments: withPayment(invoice.payments, payment_id) }),
    InvoicePaymentFailed: () => ({}),
    InvoicePaymentCanceled: () => ({}),
    InvoicePaymentNotApplied: 'unchanged',
    InvoiceRetriesExhausted: 'unchanged',
    InvoicePaid: (invoice) => ({ status: 'paid', amount_due: formatAmount(new Big(0), invoice.currency) }),
    InvoiceVoided: (invoice) => ({ status: 'void', amount_due: formatAmount(new Big(0), invoice.currency) }),
    InvoiceMarkedUncollectible: () => ({ status: 'uncollectible' }),
    // Shown once numbered (its CreditNoteIssued follows at once).
    CreditNoteDecided: 'unchanged',
    CreditNoteIssued: (invoice, data) => ({
      credit_notes: [...invoice.credit_notes, creditNoteIssued(invoice, data)],
      amount_due: data.pre_payment ? formatAmount(new Big(invoice.amount_due).minus(data.amount), invoice.currency) : invoice.amount_due,
    }),
    CreditNoteRefundUpdated: (invoice, data) => withCreditNote(invoice, data.credit_note_id, (note) => creditNoteChanged(note, { type: 'CreditNoteRefundUpdated', data })),
    CreditNoteRefundFailed: (invoice, data) => withCreditNote(invoice, data.credit_note_id, (note) => creditNoteChanged(note, { type: 'CreditNoteRefundFailed', data })),
    CreditNoteResolved: (invoice, data) => withCreditNote(invoice, data.credit_note_id, (note) => creditNoteChanged(note, { type: 'CreditNoteResolved', data })),
  },
  publicTypes: {
    InvoiceCreated: 'invoice.created',
    InvoiceDraftUpdated: 'invoice.updated',
    InvoiceLineAdded: 'invoice.updated',
    InvoiceLineRemoved: 'invoice.updated',
    InvoiceTaxComputed: 'invoice.updated',
    InvoiceFinalized: 'invoice.finalized',
    InvoicePaymentApplied: 'invoice.updated',
    InvoicePaymentStarted: 'invoice.updated',
    InvoicePaymentFailed: 'invoice.payment_failed',
    InvoicePaymentCanceled: 'invoice.updated',
    // The invoice does not change; the payment's refund (`payment.refunded`) announces it.
    InvoicePaymentNotApplied: undefined,
    InvoicePaid: 'invoice.paid',
    InvoiceVoided: 'invoice.voided',
    InvoiceMarkedUncollectible: 'invoice.marked_uncollectible',
    // What dunning's end brings is announced by its effect (the write-off, the subscription's cancel).
    InvoiceRetriesExhausted: undefined,
    CreditNoteDecided: undefined,
    CreditNoteIssued: 'credit_note.created',
    // The refund's own events (`refund.succeeded`, `refund.failed`) announce its attempts.
    CreditNoteRefundUpdated: undefined,
    CreditNoteRefundFailed: 'credit_note.refund_failed',
    // The spec names no event for an operator's resolution; the invoice and the credit note show it.
    CreditNoteResolved: undefined,
  },
});

function lineResource(line: InvoiceLineData, currency: string): InvoiceLineResource {
  return {
    id: line.line_id,
    object: 'line_item',
    code: line.code,
    description: line.description,
    quantity: line.quantity,
    unit_amount: line.unit_amount,
    amount: formatAmount(new Big(line.amount), currency),
    period_start: line.period_start,
    period_end: line.period_end,
    proration: line.proration,
    price_version: line.price_version,
    discount_amount: formatAmount(new Big(0), currency),
    tax_amount: formatAmount(new Big(0), currency),
    tax_rate: '0',
    metadata: keyedObject(Object.entries(line.metadata)),
  };
}

/** A draft's totals before its tax is computed: the lines' sum, no discount, no tax. */
function draftTotals(lines: InvoiceLineResource[], currency: string): Pick<InvoiceResource, 'lines' | 'subtotal' | 'discount' | 'tax' | 'total' | 'amount_due' | 'tax_breakdown' | 'discounts'> {
  const zero = formatAmount(new Big(0), currency);
  const subtotal = formatAmount(
    lines.reduce((sum, line) => sum.plus(line.amount), new Big(0)),
    currency,
  );
  return {
    lines: lines.map((line) => ({ ...line, discount_amount: zero, tax_amount: zero, tax_rate: '0' })),
    subtotal,
    discount: zero,
    tax: zero,
    total: subtotal,
    amount_due: subtotal,
    tax_breakdown: [],
    discounts: [],
  };
}

function withTotals(invoice: InvoiceResource, totals: InvoiceTotalsData): InvoiceResource {
  const money = (amount: string) => formatAmount(new Big(amount), invoice.currency);
  return {
    ...invoice,
    lines: invoice.lines.map((line) => {
      const computed = totals.lines.find((l) => l.line_id === line.id);
      return computed ? { ...line, discount_amount: money(computed.discount_amount), tax_amount: money(computed.tax_amount), tax_rate: computed.tax_rate } : line;
    }),
    subtotal: money(totals.subtotal),
    discount: money(totals.discount),
    tax: money(totals.tax),
    total: money(totals.total),
    amount_due: money(new Big(totals.total).lt(0) ? '0' : totals.total),
    tax_breakdown: totals.tax_breakdown.map((entry) => ({ ...entry, taxable_amount: money(entry.taxable_amount), tax_amount: money(entry.tax_amount) })),
    discounts: totals.discounts.map((applied) => ({ ...applied, amount: money(applied.amount) })),
  };
}

function withCreditNote(invoice: InvoiceResource, creditNoteId: string, change: (note: CreditNoteResource) => CreditNoteResource): Pick<InvoiceResource, 'credit_notes'> {
  return { credit_notes: invoice.credit_notes.map((note) => (note.id === creditNoteId ? change(note) : note)) };
}

/** `payments` lists every attempt once, oldest first (docs/decisions.md, API versions). */
const withPayment = (payments: string[], paymentId: string): string[] => (payments.includes(paymentId) ? payments : [...payments, paymentId]);
