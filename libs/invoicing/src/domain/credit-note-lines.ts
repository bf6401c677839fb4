import Big from 'big.js';
import { allocate, roundToCurrency } from '@tally/kernel';
import type { CreditNoteLineData } from './invoice.events';

/** A finalised line as credit notes see it: its total (after discounts, with tax), the tax in it, and what was credited of it. */
export interface CreditableLine {
  line_id: string;
  total: string;
  tax: string;
  credited: string;
}

/** What is left to credit of a line. */
export const leftToCredit = (line: CreditableLine): Big => new Big(line.total).minus(line.credited);

/**
 * An amount spread over the lines in proportion to what is left to credit of each, each part in
 * whole minor units and the parts adding up to the amount exactly (largest remainder), so no line
 * gets more than is left of it. Lines with nothing left get nothing and are not listed.
 */
export function spreadOverLines(amount: Big, lines: readonly CreditableLine[], currency: string): { line: CreditableLine; amount: Big }[] {
  const open = lines.filter((line) => leftToCredit(line).gt(0));
  if (open.length === 0) return [];
  const parts = allocate(amount, open.map(leftToCredit), currency);
  return open.map((line, i) => ({ line, amount: parts[i] })).filter((part) => part.amount.gt(0));
}

/** A line's credited amount with the tax in it at the line's own rate (the line's tax share of its total), rounded to the currency. */
export function creditedLine(line: CreditableLine, amount: Big, currency: string): CreditNoteLineData {
  const total = new Big(line.total);
  const tax = total.eq(0) ? new Big(0) : roundToCurrency(amount.times(line.tax).div(total), currency);
  return { line_id: line.line_id, amount: amount.toFixed(), tax_amount: tax.toFixed() };
}
