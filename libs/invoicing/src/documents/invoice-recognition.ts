import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import { recognitionScheduleSteps, type RecognitionInput, type RecognitionSchedule } from '../domain/recognition-schedule';
import type { InvoiceResource } from '../invoice.view';

type RecognisedInvoice = Pick<InvoiceResource, 'status' | 'currency' | 'tax_behavior' | 'lines' | 'credit_notes' | 'issued_at' | 'created_at'>;

/**
 * What an invoice's revenue recognition schedule is worked out from: its lines over their service
 * periods, each with the total its credit notes credit against, and its credit notes. A draft is
 * not revenue yet, and a void invoice never was: their schedules are empty.
 */
export function recognitionInputOf(invoice: RecognisedInvoice): RecognitionInput {
  const recognised = invoice.status !== 'draft' && invoice.status !== 'void';
  return {
    currency: invoice.currency,
    // A line without a service period (added by hand) is revenue of the day the invoice was issued.
    lines: recognised
      ? invoice.lines.map((line) => ({ id: line.id, amount: line.amount, ...servicePeriod(line, invoice.issued_at ?? invoice.created_at), credit_basis: creditBasis(line, invoice.tax_behavior) }))
      : [],
    credit_notes: recognised ? invoice.credit_notes.map(({ id, amount, lines, created_at }) => ({ id, amount, lines, created_at })) : [],
  };
}

/** What a credit note did to an invoice's schedule: revenue it took off, the part already recognised (reversed on its day) and the part still deferred (removed from future rows). */
export interface CreditNoteRecognition {
  revenue_reduced: string;
  recognized_reversed: string;
  deferred_reduced: string;
}

/** The effect of the credit note `creditNoteId` (one of the invoice's) on its schedule. */
export function creditNoteRecognition(invoice: RecognisedInvoice, creditNoteId: string, now: Date): CreditNoteRecognition {
  const position = invoice.credit_notes.findIndex((note) => note.id === creditNoteId);
  const upTo = (count: number) => wholeSchedule(recognitionInputOf({ ...invoice, credit_notes: invoice.credit_notes.slice(0, count) }), now);
  const before = upTo(position);
  const after = upTo(position + 1);
  const reduced = new Big(before.total).minus(after.total);
  const reversed = after.rows.filter((row) => row.credit_note_id === creditNoteId).reduce((sum, row) => sum.minus(row.amount), new Big(0));
  const money = (amount: Big) => formatAmount(amount, invoice.currency);
  return { revenue_reduced: money(reduced), recognized_reversed: money(reversed), deferred_reduced: money(reduced.minus(reversed)) };
}

function wholeSchedule(input: RecognitionInput, now: Date): RecognitionSchedule {
  const steps = recognitionScheduleSteps(input, now);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The line's total after discounts, with tax. Exact for tax-exclusive lines; a tax-inclusive line's
 * total is its amount less its discount (its discount net of tax is what the line shows).
 */
function creditBasis(line: InvoiceResource['lines'][number], behavior: InvoiceResource['tax_behavior']): string {
  const afterDiscount = new Big(line.amount).minus(line.discount_amount);
  return (behavior === 'exclusive' ? afterDiscount.plus(line.tax_amount) : afterDiscount).toFixed();
}

function servicePeriod(line: { period_start: string | null; period_end: string | null }, issuedAt: string): { period_start: string; period_end: string } {
  if (line.period_start && line.period_end) return { period_start: line.period_start, period_end: line.period_end };
  const day = `${issuedAt.slice(0, 10)}T00:00:00.000Z`;
  return { period_start: day, period_end: new Date(Date.parse(day) + 86_400_000).toISOString() };
}
