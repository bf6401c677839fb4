import { derivedId, DomainError } from '@tally/kernel';
import { publishedCommands, type AggregateDefinition } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { invoiceDecider, type InvoiceCommand, type InvoiceState } from './domain/invoice.decider';
import type { InvoiceEvent } from './domain/invoice.events';
import {
  invoiceNumberSequenceDecider,
  type InvoiceNumberSequenceCommand,
  type InvoiceNumberSequenceEvent,
  type InvoiceNumberSequenceState,
} from './domain/invoice-number-sequence';
import { invoiceView, type InvoiceResource } from './invoice.view';

/** The spec's identifier prefix of invoices (`inv_`); lines are `il_`, credit notes `cn_`. */
export const INVOICE_ID_PREFIX = 'inv';
export const INVOICE_LINE_ID_PREFIX = 'il';
export const CREDIT_NOTE_ID_PREFIX = 'cn';

export const invoiceAggregate: AggregateDefinition<InvoiceState, InvoiceCommand, InvoiceEvent, InvoiceResource> = {
  type: 'invoice',
  decider: invoiceDecider,
  view: invoiceView,
  notFound: (id) => DomainError.notFound('invoice.not_found', `No invoice ${id}`),
};

/** The invoice aggregate as payments addresses it: the commands invoicing publishes to the context collecting it. */
export const invoiceCollection = publishedCommands(invoiceAggregate, ['StartInvoicePayment', 'ApplyInvoicePayment', 'CloseInvoicePayment', 'ExhaustInvoiceRetries']);

/** The invoice aggregate as a payment's refund addresses it: its attempts' outcomes on its credit note (which CreditNoteIssuance issues), and their resolution. */
export const invoiceRefunds = publishedCommands(invoiceAggregate, ['RecordCreditNoteRefund', 'ResolveCreditNote']);

/**
 * The invoice aggregate as a subscription's pause or expiry and late usage address it: voided or
 * written off by their policies (`cancel_open_payment: true` cancels a payment still under way, or
 * returns it if it succeeds anyway).
 */
export const invoiceClosing = publishedCommands(invoiceAggregate, ['VoidInvoice', 'MarkInvoiceUncollectible']);

/**
 * The invoice of one subscription period: the same (subscription, period start) always names the
 * same invoice, so a second billing attempt meets the first one's stream instead of billing twice.
 */
export function subscriptionInvoiceId(subscriptionId: string, periodStart: string): string {
  return derivedId(INVOICE_ID_PREFIX, [subscriptionId, periodStart]);
}

export const invoiceNumberSequenceAggregate: AggregateDefinition<InvoiceNumberSequenceState, InvoiceNumberSequenceCommand, InvoiceNumberSequenceEvent> = {
  type: 'invoice_number_sequence',
  decider: invoiceNumberSequenceDecider,
  notFound: (id) => DomainError.notFound('invoice.number_sequence_not_found', `No invoice number sequence ${id}`),
  // The stream grows by one event per invoice and every finalisation loads it: a snapshot every 10
  // reservations keeps the read short (its state stays small: no personal data).
  snapshot: { every: 10, version: 1 },
};

export const INVOICE_NUMBER_SEQUENCE_PREFIX = 'invseq';

/** The tenant's credit-note numbers: a sequence of their own, kept as the invoices' is (the same decider, another stream type). */
export const creditNoteNumberSequenceAggregate: AggregateDefinition<InvoiceNumberSequenceState, InvoiceNumberSequenceCommand, InvoiceNumberSequenceEvent> = {
  ...invoiceNumberSequenceAggregate,
  type: 'credit_note_number_sequence',
};

export const CREDIT_NOTE_NUMBER_SEQUENCE_PREFIX = 'cnseq';

/** One sequence per tenant and environment. */
export const invoiceNumberSequenceIdOf = (context: Pick<RequestContext, 'tenantId' | 'environment'>): string =>
  derivedId(INVOICE_NUMBER_SEQUENCE_PREFIX, [context.tenantId, context.environment]);

/** A gap-free number sequence of a tenant and environment: its aggregate, its stream's id and the prefix of its numbers. */
export interface NumberSequence {
  aggregate: AggregateDefinition<InvoiceNumberSequenceState, InvoiceNumberSequenceCommand, InvoiceNumberSequenceEvent>;
  idOf(context: Pick<RequestContext, 'tenantId' | 'environment'>): string;
  prefixOf(context: Pick<RequestContext, 'tenantId' | 'environment'>): string;
}

export const INVOICE_NUMBERS: NumberSequence = { aggregate: invoiceNumberSequenceAggregate, idOf: (context) => invoiceNumberSequenceIdOf(context), prefixOf: (context) => invoiceNumberPrefix(context) };

/** Credit notes are numbered `<the tenant's invoice prefix>-CN-000001`. */
export const CREDIT_NOTE_NUMBERS: NumberSequence = {
  aggregate: creditNoteNumberSequenceAggregate,
  idOf: (context) => derivedId(CREDIT_NOTE_NUMBER_SEQUENCE_PREFIX, [context.tenantId, context.environment]),
  prefixOf: (context) => `${invoiceNumberPrefix(context)}-CN`,
};

/**
 * The tenant's invoice-number prefix, as Stripe's account prefix: 8 characters derived from the
 * tenant and environment, so numbers of two tenants (or of live and sandbox) never look alike.
 */
export const invoiceNumberPrefix = (context: Pick<RequestContext, 'tenantId' | 'environment'>): string =>
  derivedId('x', [context.tenantId, context.environment, 'invoice-number-prefix']).slice(2, 10);
