import Big from 'big.js';
import { minorUnits } from '@tally/kernel';

/**
 * Revenue recognition of an invoice, straight-line by the day (as Stripe's revenue recognition
 * reports it):
 *
 * - Each line is recognised over its service period [period_start, period_end), cut at UTC
 *   midnights. A day's share of the line is the line's amount × the milliseconds of that day inside
 *   the period ÷ the milliseconds of the period, split by the largest-remainder method in the
 *   amount's smallest unit (the currency's minor unit, or finer when the amount has more decimals):
 *   every day gets the floor of its exact share, then the units left over go one each to the days
 *   with the largest remainders, the earlier day on a tie. A line's rows therefore sum exactly to
 *   its amount. A line whose period is empty (end ≤ start) is recognised whole on its start date.
 * - A credit note takes effect from the start of the UTC day it was issued (its `created_at`).
 *   It credits a line's total (after discounts, with tax: its `credit_basis`), of which the
 *   schedule holds the line's amount: what it takes off the schedule is in the same proportion,
 *   rounded half-even to the unit on what was credited of the line so far, so that crediting the
 *   whole total takes off the whole amount (a line without a basis is credited one for one).
 *   Of the credited amount `c` of a line whose schedule still holds `N`, of which `F` is dated on
 *   or after that day, the future rows lose `c × F ÷ N` (rounded half-even to the unit, spread over
 *   them in proportion to their amounts, largest remainder again, so a row never turns negative),
 *   and the rest of `c` — the part already recognised — is reversed by one negative row dated the
 *   credit note's day, carrying its id. Crediting a line whole removes its future rows and reverses
 *   everything recognised before. Rows that reach zero are dropped. A credit beyond what the line
 *   still holds is capped at it. A credit note without lines is spread over the invoice's lines
 *   in proportion to what each still holds (of its basis, where the lines have one).
 * - A row is recognised once its day has ended (`now` ≥ the next UTC midnight).
 *
 * Pure and deterministic: the same invoice and `now` give the same rows, ordered by date, then
 * the line's position on the invoice, the line's own rows before reversals (a row's key). A page
 * holds the rows after a key; the sums are always the whole schedule's.
 */

export interface RecognitionLine {
  id: string;
  /** Decimal string; negative for a credit line (recognised the same way). */
  amount: string;
  period_start: string;
  period_end: string;
  /** What credit notes credit of the line (its total after discounts, with tax); absent: its amount. */
  credit_basis?: string;
}

export interface RecognitionCreditNote {
  id: string;
  amount: string;
  /** By line; empty when the credit note is by amount only. */
  lines: readonly { line_id: string; amount: string }[];
  created_at: string;
}

export interface RecognitionInput {
  currency: string;
  lines: readonly RecognitionLine[];
  credit_notes: readonly RecognitionCreditNote[];
}

export interface RecognitionRow {
  /** The UTC day, `YYYY-MM-DD`. */
  date: string;
  line_id: string;
  /** The credit note a reversal row undoes recognised revenue for; null on the line's own rows. */
  credit_note_id: string | null;
  amount: string;
  recognized: boolean;
}

/** A row's place in the schedule's order: its day, its line's position on the invoice, and the credit note of a reversal. */
export interface RecognitionRowKey {
  date: string;
  line: number;
  credit_note_id: string | null;
}

/** Which rows to give: `limit` of them after the row `after` (from the first when null). */
export interface RecognitionPage {
  after: RecognitionRowKey | null;
  limit: number;
}

export interface RecognitionSchedule {
  /** The page's rows. */
  rows: RecognitionRow[];
  /** The key of the page's last row when more rows follow it; null on the last page. */
  next: RecognitionRowKey | null;
  /** What the rows sum to: the lines' amounts less what the credit notes took off them. */
  total: string;
  recognized_to_date: string;
  deferred: string;
}

const DAY_MS = 86_400_000;

/** A row in integer units of 10^-scale, while the schedule is built. */
interface Entry {
  day: number;
  line: number;
  creditNote: string | null;
  units: bigint;
}

const WHOLE: RecognitionPage = { after: null, limit: Infinity };
/** Rows formatted in one step (a page has up to a thousand). */
const ROWS_PER_STEP = 100;

/**
 * The schedule, worked out in steps of about a line's days each: a caller may let other work run
 * between them (the largest invoice spreads some 92,000 day shares).
 */
export function* recognitionScheduleSteps(input: RecognitionInput, now: Date, page: RecognitionPage = WHOLE): Generator<void, RecognitionSchedule> {
  const scale = scaleOf(input);
  const toUnits = (amount: string): bigint => BigInt(new Big(amount).times(new Big(10).pow(scale)).round(0, Big.roundHalfEven).toFixed(0));
  const lineIndex = new Map(input.lines.map((line, i) => [line.id, i] as const));
  const entries: Entry[][] = [];
  for (const [i, line] of input.lines.entries()) {
    entries.push(spread(toUnits(line.amount), line, i));
    yield;
  }

  const bases = input.lines.map((line) => (line.credit_basis === undefined ? null : toUnits(line.credit_basis)));
  const amounts = input.lines.map((line) => toUnits(line.amount));
  /** Of each line: how much of its basis credit notes credited, and what that took off its schedule. */
  const creditedBasis = input.lines.map(() => 0n);
  const takenOff = input.lines.map(() => 0n);
  /** The units a credit of `units` of line `i`'s basis takes off its schedule. */
  const revenueOf = (i: number, units: bigint): bigint => {
    const basis = bases[i];
    if (basis === null) return units;
    creditedBasis[i] += units;
    const credited = abs(creditedBasis[i]) > abs(basis) ? basis : creditedBasis[i];
    const target = basis === 0n ? 0n : divideHalfEven(credited * amounts[i], basis);
    const share = target - takenOff[i];
    takenOff[i] = target;
    return share;
  };
  const creditNotes = [...input.credit_notes].sort((a, b) => compare(Date.parse(a.created_at), Date.parse(b.created_at)) || compare(a.id, b.id));
  for (const note of creditNotes) {
    const day = dayOf(Date.parse(note.created_at));
    const byLine = new Map<number, bigint>();
    if (note.lines.length > 0) {
      for (const credited of note.lines) {
        const i = lineIndex.get(credited.line_id);
        if (i !== undefined) byLine.set(i, (byLine.get(i) ?? 0n) + toUnits(credited.amount));
      }
    } else {
      const held = entries.map((rows, i) => max(0n, bases[i] === null ? sum(rows) : bases[i]! - creditedBasis[i]));
      const shares = largestRemainder(toUnits(note.amount), held);
      shares.forEach((share, i) => share !== 0n && byLine.set(i, share));
    }
    for (const [i, credit] of byLine) {
      entries[i] = credited(entries[i], revenueOf(i, credit), day, i, note.id);
      yield;
    }
  }

  const today = Math.floor(now.getTime() / DAY_MS);
  let total = 0n;
  let recognized = 0n;
  // Ordered day by day (a day's rows are few), rather than in one sort of them all.
  const byDay = new Map<number, Entry[]>();
  for (const rows of entries) {
    for (const entry of rows) {
      if (entry.units === 0n) continue;
      total += entry.units;
      if (entry.day < today) recognized += entry.units;
      const day = byDay.get(entry.day);
      if (day) day.push(entry);
      else byDay.set(entry.day, [entry]);
    }
    yield;
  }
  const ordered: Entry[] = [];
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    ordered.push(...byDay.get(day)!.sort(inOrder));
    yield;
  }
  const fromUnits = (units: bigint): string => formatUnits(units, scale, minorUnits(input.currency));
  // Only the page's rows are formatted: a schedule of a year's lines has hundreds of thousands of rows.
  const after = page.after && entryOf(page.after);
  const first = after ? firstAfter(ordered, after) : 0;
  const end = Math.min(ordered.length, first + page.limit);
  const rows: RecognitionRow[] = [];
  for (const entry of ordered.slice(first, end)) {
    rows.push({ date: dateOf(entry.day), line_id: input.lines[entry.line].id, credit_note_id: entry.creditNote, amount: fromUnits(entry.units), recognized: entry.day < today });
    if (rows.length % ROWS_PER_STEP === 0) yield;
  }
  const next = end < ordered.length ? keyOf(ordered[end - 1]) : null;
  return { rows, next, total: fromUnits(total), recognized_to_date: fromUnits(recognized), deferred: fromUnits(total - recognized) };
}

const inOrder = (a: Pick<Entry, 'day' | 'line' | 'creditNote'>, b: Pick<Entry, 'day' | 'line' | 'creditNote'>): number =>
  a.day - b.day || a.line - b.line || compare(a.creditNote ?? '', b.creditNote ?? '');

const keyOf = (entry: Entry): RecognitionRowKey => ({ date: dateOf(entry.day), line: entry.line, credit_note_id: entry.creditNote });
const entryOf = (key: RecognitionRowKey): Pick<Entry, 'day' | 'line' | 'creditNote'> => ({ day: dayOf(Date.parse(`${key.date}T00:00:00.000Z`)), line: key.line, creditNote: key.credit_note_id });

/** The position of the first entry after `key` in the ordered entries (a binary search: a page is found without a walk). */
function firstAfter(ordered: readonly Entry[], key: Pick<Entry, 'day' | 'line' | 'creditNote'>): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (inOrder(ordered[middle], key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The line's amount over the UTC days of its period, in proportion to the time of each day inside it. */
function spread(units: bigint, line: RecognitionLine, index: number): Entry[] {
  const start = Date.parse(line.period_start);
  const end = Date.parse(line.period_end);
  if (!(end > start)) return [{ day: dayOf(start), line: index, creditNote: null, units }];
  const days: number[] = [];
  const weights: bigint[] = [];
  for (let day = dayOf(start); day * DAY_MS < end; day++) {
    days.push(day);
    weights.push(BigInt(Math.min(end, (day + 1) * DAY_MS) - Math.max(start, day * DAY_MS)));
  }
  return largestRemainder(units, weights).map((share, i) => ({ day: days[i], line: index, creditNote: null, units: share }));
}

/** The line's rows after a credit of `credit` units from `day` on (see the rule above). */
function credited(rows: Entry[], credit: bigint, day: number, line: number, creditNote: string): Entry[] {
  const held = sum(rows);
  const sign = held < 0n ? -1n : 1n;
  const c = min(abs(credit), abs(held)) * sign;
  if (c === 0n) return rows;
  const future = rows.filter((row) => row.day >= day && row.creditNote === null && row.units * sign > 0n);
  const futureHeld = sum(future);
  const fromFuture = divideHalfEven(c * futureHeld, held);
  const reductions = largestRemainder(fromFuture * sign, future.map((row) => row.units * sign));
  const reduced = new Map(future.map((row, i) => [row, reductions[i] * sign] as const));
  const after = rows.map((row) => (reduced.has(row) ? { ...row, units: row.units - reduced.get(row)! } : row));
  const reversal = c - fromFuture;
  return reversal === 0n ? after : [...after, { day, line, creditNote, units: -reversal }];
}

/**
 * `units` (of either sign) split in proportion to non-negative `weights`: each part the floor of
 * its exact share, the leftover units one each to the largest remainders, the earlier on a tie.
 * All-zero weights split equally.
 */
function largestRemainder(units: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const magnitude = abs(units);
  const shares = weights.every((w) => w === 0n) ? weights.map(() => 1n) : weights;
  const totalWeight = sum(shares);
  const parts = shares.map((w) => (magnitude * w) / totalWeight);
  const remainders = shares.map((w) => (magnitude * w) % totalWeight);
  let leftover = magnitude - sum(parts);
  const byRemainder = shares.map((_, i) => i).sort((a, b) => (remainders[b] > remainders[a] ? 1 : remainders[b] < remainders[a] ? -1 : a - b));
  for (const i of byRemainder) {
    if (leftover === 0n) break;
    parts[i] += 1n;
    leftover -= 1n;
  }
  return units < 0n ? parts.map((p) => -p) : parts;
}

/** The smallest unit the schedule counts in: the currency's minor unit, or finer when an amount has more decimals. */
function scaleOf(input: RecognitionInput): number {
  const amounts = [...input.lines.flatMap((line) => [line.amount, ...(line.credit_basis === undefined ? [] : [line.credit_basis])]), ...input.credit_notes.flatMap((note) => [note.amount, ...note.lines.map((line) => line.amount)])];
  return Math.max(minorUnits(input.currency), ...amounts.map((amount) => new Big(amount).toFixed().split('.')[1]?.length ?? 0));
}

function formatUnits(units: bigint, scale: number, currencyDigits: number): string {
  const amount = new Big(units.toString()).div(new Big(10).pow(scale));
  const digits = amount.toFixed().split('.')[1]?.length ?? 0;
  return amount.toFixed(Math.max(digits, currencyDigits));
}

/** a × b ÷ c style quotient `n ÷ d`, rounded half-even (d ≠ 0). */
function divideHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) return divideHalfEven(-n, -d);
  const q = n / d;
  const r = n % d;
  const twice = abs(r) * 2n;
  if (twice < d || (twice === d && q % 2n === 0n)) return q;
  return n < 0n ? q - 1n : q + 1n;
}

const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const sum = (values: readonly (bigint | Entry)[]): bigint => values.reduce<bigint>((total, v) => total + (typeof v === 'bigint' ? v : v.units), 0n);
const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const compare = <T extends number | string>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);
