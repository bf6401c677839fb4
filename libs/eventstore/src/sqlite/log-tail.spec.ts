import type { EventRow } from './event-row';
import { KEPT_BYTES, KEPT_ROWS, LogTail } from './log-tail';

const row = (position: number, stream: string): EventRow => ({ position, stream, revision: 0, event_id: `e${position}`, type: 'Happened', data: '{}', metadata: '{}' });

/** A log of `length` rows, alternating between an order and an invoice stream; records each read it answers. */
function logOf(length: number) {
  const rows = Array.from({ length }, (_, i) => row(i + 1, i % 2 === 0 ? 'order-1' : 'invoice-1'));
  const reads: [bigint, bigint, number][] = [];
  const readRows = (after: bigint, upTo: bigint, limit: number) => {
    reads.push([after, upTo, limit]);
    return rows.filter((r) => r.position > after && r.position <= upTo).slice(0, limit);
  };
  return { rows, reads, readRows };
}

const everything = () => true;
const orders = (stream: string) => stream.startsWith('order-');

describe('LogTail', () => {
  it('reads new rows from the file once for all its subscribers, each getting the streams it wants', () => {
    const log = logOf(10);
    const tail = new LogTail(log.readRows);

    const first = tail.read(0n, 10n, 100, everything)!;
    const second = tail.read(0n, 10n, 100, orders)!;

    expect(first.rows.map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(second.rows.map((r) => r.position)).toEqual([1, 3, 5, 7, 9]);
    expect(second.scannedTo).toBe(10n);
    expect(log.reads).toHaveLength(1);
  });

  it('stops at the limit, saying how far the rows it returned cover', () => {
    const tail = new LogTail(logOf(10).readRows);
    const page = tail.read(2n, 10n, 2, orders)!;
    expect(page.rows.map((r) => r.position)).toEqual([3, 5]);
    expect(page.scannedTo).toBe(5n);
  });

  it('reads only what was appended since, when the head moves on', () => {
    const log = logOf(20);
    const tail = new LogTail(log.readRows);
    tail.read(0n, 10n, 100, everything);
    expect(tail.read(10n, 20n, 100, everything)!.rows.map((r) => r.position)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(log.reads.map(([after, upTo]) => [after, upTo])).toEqual([
      [0n, 10n],
      [10n, 20n],
    ]);
  });

  it('leaves a subscriber that has fallen behind what it keeps to the file', () => {
    const log = logOf(KEPT_ROWS + 10);
    const tail = new LogTail(log.readRows);
    const head = BigInt(KEPT_ROWS + 10);
    expect(tail.read(0n, head, 100, everything)).toBeUndefined();
    expect(tail.read(10n, head, 100, everything)!.rows[0].position).toBe(11);
    tail.read(head, head, 100, everything);
    expect(tail.read(5n, head, 100, everything)).toBeUndefined();
  });

  it('keeps fewer rows when they are large, and leaves older ones to the file', () => {
    const large = Math.ceil(KEPT_BYTES / 4);
    const rows = Array.from({ length: 8 }, (_, i) => ({ ...row(i + 1, 'usage_ingest-1'), data: 'x'.repeat(large) }));
    const tail = new LogTail((after, upTo, limit) => rows.filter((r) => r.position > after && r.position <= upTo).slice(0, limit));
    expect(tail.read(0n, 8n, 100, everything)).toBeUndefined();
    expect(tail.read(5n, 8n, 100, everything)!.rows.map((r) => r.position)).toEqual([6, 7, 8]);
  });
});
