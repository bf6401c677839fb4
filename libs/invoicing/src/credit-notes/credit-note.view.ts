import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import { resolvedOutcome } from '../domain/invoice.decider';
import type {
  CreditNoteIssued,
  CreditNoteLineData,
  CreditNoteOutcome,
  CreditNoteReason,
  CreditNoteRefundFailed,
  CreditNoteRefundUpdated,
  CreditNoteResolution,
  CreditNoteResolved,
} from '../domain/invoice.events';

/** A credit note as the API shows it, on its invoice and on its own (a type, so it is a read-store document). */
export type CreditNoteResource = {
  id: string;
  object: 'credit_note';
  number: string;
  amount: string;
  invoice_id: string;
  customer_id: string;
  currency: string;
  reason: CreditNoteReason;
  memo: string | null;
  lines: CreditNoteLineData[];
  /** The tax in `amount`, each line's at its own rate. */
  tax_amount: string;
  /** Before payment it lowered what was due; after, it refunds or credits the wallet. */
  type: 'pre_payment' | 'post_payment';
  outcome: CreditNoteOutcome;
  /** The refund that issued it (`rfd_…`) and the payment it returns. */
  refund_id: string | null;
  payment_id: string | null;
  /** How an operator closed it once its refund failed on every attempt. */
  resolution: CreditNoteResolution | null;
  /** Filled when the credit note is answered (a signed, short-lived link); null in the read models and events. */
  pdf_url: string | null;
  created_at: string;
};

/** What a credit note takes of its invoice. */
export type CreditNoteInvoice = { id: string; customer_id: string; currency: string };

/** The credit note an issue made, in the invoice's currency's minor units. */
export function creditNoteIssued(invoice: CreditNoteInvoice, data: CreditNoteIssued['data']): CreditNoteResource {
  const money = (value: Big.BigSource) => formatAmount(new Big(value), invoice.currency);
  const { credit_note_id, number, amount, reason, memo, lines, pre_payment, outcome, refund_id, payment_id, created_at } = data;
  return {
    id: credit_note_id,
    object: 'credit_note',
    number,
    invoice_id: invoice.id,
    customer_id: invoice.customer_id,
    currency: invoice.currency,
    amount: money(amount),
    reason,
    memo,
    lines: lines.map((line) => ({ line_id: line.line_id, amount: money(line.amount), tax_amount: money(line.tax_amount) })),
    tax_amount: money(lines.reduce((sum, line) => sum.plus(line.tax_amount), new Big(0))),
    type: pre_payment ? 'pre_payment' : 'post_payment',
    outcome,
    refund_id,
    payment_id,
    resolution: null,
    pdf_url: null,
    created_at,
  };
}

export type CreditNoteChange = CreditNoteRefundUpdated | CreditNoteRefundFailed | CreditNoteResolved;

/** A credit note after its refund's attempt, its failure on every attempt, or an operator's resolution. */
export function creditNoteChanged(note: CreditNoteResource, event: CreditNoteChange): CreditNoteResource {
  switch (event.type) {
    case 'CreditNoteRefundUpdated':
      return { ...note, outcome: { ...note.outcome, refund_status: event.data.refund_status } };
    case 'CreditNoteRefundFailed':
      return { ...note, outcome: { kind: 'pending_manual', refund_status: 'failed' } };
    case 'CreditNoteResolved':
      return { ...note, outcome: resolvedOutcome(event.data.resolution), resolution: event.data.resolution };
  }
}
