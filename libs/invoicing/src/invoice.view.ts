import Big from 'big.js';
import { assertNever, formatAmount, keyedObject } from '@tally/kernel';
import { publicTypesOf, type ResourceView } from '@tally/runtime';
import type { TaxBehavior } from '@tally/tax/published';
import type { DiscountLevel } from './domain/discounts';
import type { BillingReason, CreditNoteReason, InvoiceEvent, InvoiceLineData, InvoiceStatus, InvoiceTotalsData, TaxBreakdownData } from './domain/invoice.events';

/** A line as the API shows it: as the draft holds it, with its id, discount and tax (a type, so it is a read-store document). */
export type InvoiceLineResource = Omit<InvoiceLineData, 'line_id' | 'tax_code' | 'metadata'> & {
  id: string;
  object: 'line_item';
  discount_amount: string;
  tax_amount: string;
  tax_rate: string;
  metadata: Record<string, string>;
};

export type CreditNoteResource = {
  id: string;
  object: 'credit_note';
  number: string;
  amount: string;
  reason: CreditNoteReason;
  memo: string | null;
  lines: { line_id: string; amount: string }[];
  created_at: string;
};

export interface InvoiceResource {
  [field: string]: unknown;
  id: string;
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
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** undefined: internal, no public event. */
const PUBLIC_TYPES: Record<InvoiceEvent['type'], string | undefined> = {
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
  CreditNoteIssued: 'credit_note.created',
};

/** The invoice as the API shows it, folded from its events; money as decimal strings in the currency's minor units. */
export const invoiceView: ResourceView<InvoiceResource, InvoiceEvent> = {
  aggregateType: 'invoice',
  collection: 'invoices',

  apply(invoice, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'InvoiceCreated') {
      const data = event.data;
      return withDraftTotals({
        id: data.invoice_id,
        object: 'invoice',
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
        lines: data.lines.map((line) => lineResource(line, data.currency)),
        subtotal: '',
        discount: '',
        tax: '',
        total: '',
        amount_paid: formatAmount(new Big(0), data.currency),
        amount_due: '',
        tax_breakdown: [],
        discounts: [],
        payments: [],
        credit_notes: [],
        pdf_url: null,
        metadata: keyedObject(Object.entries(data.metadata)),
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      });
    }
    if (!invoice) return undefined;
    const money = (amount: Big.BigSource) => formatAmount(new Big(amount), invoice.currency);
    switch (event.type) {
      case 'InvoiceDraftUpdated': {
        const { invoice_id: _id, metadata, ...changes } = event.data;
        return { ...invoice, ...changes, ...(metadata !== undefined && { metadata: keyedObject(Object.entries(metadata)) }), updated_at: at };
      }
      case 'InvoiceLineAdded':
        return withDraftTotals({ ...invoice, lines: [...invoice.lines, lineResource(event.data.line, invoice.currency)], updated_at: at });
      case 'InvoiceLineRemoved':
        return withDraftTotals({ ...invoice, lines: invoice.lines.filter((line) => line.id !== event.data.line_id), updated_at: at });
      case 'InvoiceTaxComputed':
        return { ...withTotals(invoice, event.data.totals), updated_at: at };
      case 'InvoiceFinalized': {
        const { number, issued_at, due_at, totals } = event.data;
        return { ...withTotals(invoice, totals), status: 'open', number, issued_at, due_at, days_until_due: null, updated_at: at };
      }
      case 'InvoicePaymentApplied': {
        const { payment_id, amount } = event.data;
        return {
          ...invoice,
          status: 'partially_paid',
          amount_paid: money(new Big(invoice.amount_paid).plus(amount)),
          amount_due: money(new Big(invoice.amount_due).minus(amount)),
          payments: withPayment(invoice.payments, payment_id),
          updated_at: at,
        };
      }
      case 'InvoicePaymentStarted':
        return { ...invoice, payments: withPayment(invoice.payments, event.data.payment_id), updated_at: at };
      case 'InvoicePaymentFailed':
      case 'InvoicePaymentCanceled':
        return { ...invoice, updated_at: at };
      case 'InvoicePaymentNotApplied':
      case 'InvoiceRetriesExhausted':
        return invoice;
      case 'InvoicePaid':
        return { ...invoice, status: 'paid', amount_due: money(0), updated_at: at };
      case 'InvoiceVoided':
        return { ...invoice, status: 'void', amount_due: money(0), updated_at: at };
      case 'InvoiceMarkedUncollectible':
        return { ...invoice, status: 'uncollectible', updated_at: at };
      case 'CreditNoteIssued': {
        const { credit_note_id, number, amount, reason, memo, lines, pre_payment, created_at } = event.data;
        const note: CreditNoteResource = {
          id: credit_note_id,
          object: 'credit_note',
          number,
          amount: money(amount),
          reason,
          memo,
          lines: lines.map((line) => ({ line_id: line.line_id, amount: money(line.amount) })),
          created_at,
        };
        const amountDue = pre_payment ? money(new Big(invoice.amount_due).minus(amount)) : invoice.amount_due;
        return { ...invoice, credit_notes: [...invoice.credit_notes, note], amount_due: amountDue, updated_at: at };
      }
      default:
        return assertNever(event);
    }
  },

  publicTypes: publicTypesOf(PUBLIC_TYPES),
  publicType(event) {
    return PUBLIC_TYPES[event.type];
  },
};

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

/** A draft before its tax is computed: the lines' sum, no discount, no tax. */
function withDraftTotals(invoice: InvoiceResource): InvoiceResource {
  const zero = formatAmount(new Big(0), invoice.currency);
  const subtotal = formatAmount(
    invoice.lines.reduce((sum, line) => sum.plus(line.amount), new Big(0)),
    invoice.currency,
  );
  return {
    ...invoice,
    lines: invoice.lines.map((line) => ({ ...line, discount_amount: zero, tax_amount: zero, tax_rate: '0' })),
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

/** `payments` lists every attempt once, oldest first (docs/decisions.md, API versions). */
const withPayment = (payments: string[], paymentId: string): string[] => (payments.includes(paymentId) ? payments : [...payments, paymentId]);
