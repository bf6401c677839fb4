import type { EventRow } from './event-row';

/** How many of the latest rows the tail keeps (positions are about row counts: gaps are rare). */
export const KEPT_ROWS = 10_000;
/** How much event data it keeps at most: fewer rows when events are large (a usage batch holds a thousand events). */
export const KEPT_BYTES = 16 * 1024 * 1024;

/** Reads the rows after `after` up to `upTo`, in position order, at most `limit`. */
export type ReadRows = (after: bigint, upTo: bigint, limit: number) => EventRow[];

/**
 * The latest rows of a connection's log, read once for all of its subscriptions: every follower
 * of a cell (each projection, process manager and the dispatcher) reads the same new rows, and
 * without the tail each would scan them with a query of its own. A subscription that has fallen
 * further behind than the tail reaches reads the file instead. The rows are kept as stored
 * (strings), so every subscriber parses its own copy of an event.
 */
export class LogTail {
  private rows: EventRow[] = [];
  private bytes = 0;
  /** The rows kept are exactly those with a position in (from, to]; unset until a subscription close to the head asks. */
  private from: bigint | undefined;
  private to: bigint | undefined;

  constructor(private readonly readRows: ReadRows) {}

  /**
   * The rows after `after` up to `head` that `wanted` selects, at most `limit`, and the position
   * up to which every wanted row has been returned; undefined when `after` lies before the tail.
   */
  read(after: bigint, head: bigint, limit: number, wanted: (stream: string) => boolean): { rows: EventRow[]; scannedTo: bigint } | undefined {
    if (this.to === undefined || head - this.to > BigInt(KEPT_ROWS)) this.restartAt(after, head);
    if (this.from === undefined || this.to === undefined) return undefined;
    this.extendTo(head);
    if (after < this.from) return undefined;
    const rows: EventRow[] = [];
    for (let i = this.firstAfter(after); i < this.rows.length; i++) {
      const row = this.rows[i];
      if (!wanted(row.stream)) continue;
      rows.push(row);
      if (rows.length === limit) return { rows, scannedTo: BigInt(row.position) };
    }
    return { rows, scannedTo: this.to > after ? this.to : after };
  }

  /** Starts the tail afresh at `after`, if that is close enough to the head to be worth keeping from. */
  private restartAt(after: bigint, head: bigint): void {
    this.rows = [];
    this.bytes = 0;
    const close = head - after <= BigInt(KEPT_ROWS);
    this.from = close ? after : undefined;
    this.to = close ? after : undefined;
  }

  private extendTo(head: bigint): void {
    while (this.to! < head) {
      const read = this.readRows(this.to!, head, KEPT_ROWS);
      if (read.length === 0) {
        this.to = head;
        break;
      }
      this.rows.push(...read);
      this.bytes += read.reduce((sum, row) => sum + sizeOf(row), 0);
      this.to = BigInt(read[read.length - 1].position);
      this.trim();
    }
  }

  /** Drops the oldest rows beyond KEPT_ROWS or KEPT_BYTES; the tail then starts after the last one dropped. */
  private trim(): void {
    let excess = Math.max(0, this.rows.length - KEPT_ROWS);
    let bytes = this.bytes;
    for (let i = 0; i < excess; i++) bytes -= sizeOf(this.rows[i]);
    while (bytes > KEPT_BYTES && excess < this.rows.length) bytes -= sizeOf(this.rows[excess++]);
    if (excess === 0) return;
    this.from = BigInt(this.rows[excess - 1].position);
    this.rows = this.rows.slice(excess);
    this.bytes = bytes;
  }

  /** The index of the first kept row after `after` (binary search: rows are in position order). */
  private firstAfter(after: bigint): number {
    const position = Number(after);
    let [low, high] = [0, this.rows.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.rows[middle].position <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const sizeOf = (row: EventRow): number => row.data.length + row.metadata.length;
