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
 *   Of the credited amount `c` of a line whose schedule still holds `N`, of which `F` is dated on
 *   or after that day, the future rows lose `c × F ÷ N` (rounded half-even to the unit, spread over
 *   them in proportion to their amounts, largest remainder again, so a row never turns negative),
 *   and the rest of `c` — the part already recognised — is reversed by one negative row dated the
 *   credit note's day, carrying its id. Crediting a line whole removes its future rows and reverses
 *   everything recognised before. Rows that reach zero are dropped. A credit beyond what the line
 *   still holds is capped at it. A credit note without lines is spread over the invoice's lines
 *   in proportion to what each still holds.
 * - A row is recognised once its day has ended (`now` ≥ the next UTC midnight).
 *
 * Pure and deterministic: the same invoice and `now` give the same rows, ordered by date, then
 * the line's position on the invoice, the line's own rows before reversals.
 */

export interface RecognitionLine {
  id: string;
  /** Decimal string; negative for a credit line (recognised the same way). */
  amount: string;
  period_start: string;
  period_end: string;
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

export interface RecognitionSchedule {
  rows: RecognitionRow[];
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

export function recognitionSchedule(input: RecognitionInput, now: Date): RecognitionSchedule {
  const scale = scaleOf(input);
  const toUnits = (amount: string): bigint => BigInt(new Big(amount).times(new Big(10).pow(scale)).round(0, Big.roundHalfEven).toFixed(0));
  const lineIndex = new Map(input.lines.map((line, i) => [line.id, i] as const));
  const entries: Entry[][] = input.lines.map((line, i) => spread(toUnits(line.amount), line, i));

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
      const held = entries.map((rows) => max(0n, sum(rows)));
      const shares = largestRemainder(toUnits(note.amount), held);
      shares.forEach((share, i) => share !== 0n && byLine.set(i, share));
    }
    for (const [i, credit] of byLine) entries[i] = credited(entries[i], credit, day, i, note.id);
  }

  const today = Math.floor(now.getTime() / DAY_MS);
  const ordered = entries
    .flat()
    .filter((entry) => entry.units !== 0n)
    .sort((a, b) => a.day - b.day || a.line - b.line || compare(a.creditNote ?? '', b.creditNote ?? ''));
  const fromUnits = (units: bigint): string => formatUnits(units, scale, minorUnits(input.currency));
  let total = 0n;
  let recognized = 0n;
  const rows = ordered.map((entry) => {
    const done = entry.day < today;
    total += entry.units;
    if (done) recognized += entry.units;
    return { date: dateOf(entry.day), line_id: input.lines[entry.line].id, credit_note_id: entry.creditNote, amount: fromUnits(entry.units), recognized: done };
  });
  return { rows, total: fromUnits(total), recognized_to_date: fromUnits(recognized), deferred: fromUnits(total - recognized) };
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
  const amounts = [...input.lines.map((line) => line.amount), ...input.credit_notes.flatMap((note) => [note.amount, ...note.lines.map((line) => line.amount)])];
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
