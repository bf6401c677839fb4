import { encodePosition } from '@tally/readstore';
import { DUE_NOW, SYSTEM_CLOCK_LANES, type LaneDoc } from '../outbox/outbox-documents';
import { LaneBook } from './lane-book';

const WE = 'we_1';
const OTHER = 'we_2';
const LATER = '2026-05-01T10:00:05.000Z';

function lane(aggregate: string, changedAt: number, fields: Partial<LaneDoc> = {}): LaneDoc {
  return {
    id: `${fields.webhook_endpoint_id ?? WE}/${aggregate}`,
    webhook_endpoint_id: WE,
    tenant_id: 'ten_1',
    environment: 'sandbox',
    head: `del_${aggregate}_1`,
    tail: `del_${aggregate}_1`,
    due_at: DUE_NOW,
    clock: SYSTEM_CLOCK_LANES,
    changed_at: encodePosition(BigInt(changedAt)),
    ...fields,
  };
}

function given(...lanes: LaneDoc[]): LaneBook {
  const book = new LaneBook();
  for (const each of lanes) book.see(each);
  return book;
}

const ids = (lanes: readonly LaneDoc[]) => lanes.map((each) => each.id);
const systemAt = (now: string) => new Map([[SYSTEM_CLOCK_LANES, now]]);

describe('the lane book', () => {
  it('hands out an endpoint’s ready lanes in the order they became ready, as many as asked', () => {
    const book = given(lane('cus_2', 1), lane('cus_1', 2), lane('cus_3', 3));

    expect(ids(book.take(WE, 2))).toEqual(['we_1/cus_2', 'we_1/cus_1']);
    expect(book.sendingOf(WE)).toBe(2);
    expect(ids(book.take(WE, 5))).toEqual(['we_1/cus_3']);
    expect(book.take(WE, 5)).toEqual([]);
    expect(book.totalSending).toBe(3);
  });

  it('keeps the endpoints apart', () => {
    const book = given(lane('cus_1', 1), lane('cus_1', 2, { webhook_endpoint_id: OTHER }));

    expect(book.endpointsWithReadyLanes()).toEqual([WE, OTHER]);
    expect(ids(book.take(OTHER, 16))).toEqual(['we_2/cus_1']);
    expect(book.sendingOf(WE)).toBe(0);
  });

  it('keeps a ready lane’s place when a later delivery joins it, and ignores a document older than the one it has', () => {
    const book = given(lane('cus_1', 1), lane('cus_2', 2));

    book.see(lane('cus_1', 3, { tail: 'del_cus_1_2' }));
    book.see(lane('cus_2', 1, { head: 'del_stale' }));

    expect(book.take(WE, 2)).toEqual([lane('cus_1', 3, { tail: 'del_cus_1_2' }), lane('cus_2', 2)]);
  });

  it('never hands out a lane again until the outbox has folded its attempt, then places it as the outbox left it', () => {
    const book = given(lane('cus_1', 1));
    book.take(WE, 1);
    book.see(lane('cus_1', 2, { tail: 'del_cus_1_2' }));
    expect(book.take(WE, 1)).toEqual([]);

    book.answered('we_1/cus_1');
    expect(book.sendingOf(WE)).toBe(0);
    expect(book.foldedBy(100n, 0)).toEqual([]);

    book.recorded('we_1/cus_1', 7n);
    expect(book.foldedBy(6n, 0)).toEqual([]);
    expect(book.foldedBy(7n, 0)).toEqual(['we_1/cus_1']);

    book.settle(lane('cus_1', 7, { head: 'del_cus_1_2', tail: 'del_cus_1_2' }));
    expect(book.foldedBy(7n, 0)).toEqual([]);
    expect(book.take(WE, 1)).toEqual([lane('cus_1', 7, { head: 'del_cus_1_2', tail: 'del_cus_1_2' })]);
  });

  it('forgets a lane the outbox emptied', () => {
    const book = given(lane('cus_1', 1));
    book.take(WE, 1);
    book.answered('we_1/cus_1');
    book.recorded('we_1/cus_1', 4n);

    book.forget('we_1/cus_1');

    expect(book.foldedBy(10n, 0)).toEqual([]);
    expect(book.endpointsWithReadyLanes()).toEqual([]);
  });

  it('forgets the ready lanes of a deleted endpoint, and its others once they are ready', () => {
    const other = (aggregate: string, changedAt: number) => lane(aggregate, changedAt, { webhook_endpoint_id: OTHER });
    const book = given(lane('cus_1', 1), lane('cus_2', 2), lane('cus_3', 3, { due_at: LATER }), other('cus_1', 2));
    book.take(WE, 1);

    book.forgetReady(WE);

    expect(book.take(WE, 5)).toEqual([]);
    expect(ids(book.take(OTHER, 5))).toEqual(['we_2/cus_1']);
    book.promote(0, systemAt(LATER));
    book.forgetReady(WE);
    expect(book.take(WE, 5)).toEqual([]);
    expect(book.sendingOf(WE)).toBe(1);
  });

  it('looks at a lane whose record could not be appended again after the pause it was given', () => {
    const book = given(lane('cus_1', 1));
    book.take(WE, 1);
    book.answered('we_1/cus_1');

    book.recorded('we_1/cus_1', undefined, 1000);

    expect(book.foldedBy(10n, 999)).toEqual([]);
    expect(book.foldedBy(10n, 1000)).toEqual(['we_1/cus_1']);
  });

  it('makes a lane waiting for its retry ready once its time has come on the system clock', () => {
    const book = given(lane('cus_1', 1, { due_at: LATER }));
    expect(book.take(WE, 1)).toEqual([]);
    expect(book.waitingClocks()).toEqual(new Set([SYSTEM_CLOCK_LANES]));

    book.promote(0, systemAt('2026-05-01T10:00:04.999Z'));
    expect(book.take(WE, 1)).toEqual([]);

    book.promote(0, systemAt(LATER));
    expect(ids(book.take(WE, 1))).toEqual(['we_1/cus_1']);
    expect(book.waitingClocks()).toEqual(new Set());
  });

  it('makes a lane on a test clock ready by that clock, and holds it back while that clock is not read', () => {
    const book = given(lane('cus_1', 1, { due_at: LATER, clock: 'clock_1' }), lane('cus_2', 2, { due_at: '2026-06-01T00:00:00.000Z' }));
    expect(book.waitingClocks()).toEqual(new Set([SYSTEM_CLOCK_LANES, 'clock_1']));

    book.promote(0, systemAt('2027-01-01T00:00:00.000Z'));
    expect(ids(book.take(WE, 5))).toEqual(['we_1/cus_2']);

    book.promote(0, new Map([['clock_1', LATER]]));
    expect(ids(book.take(WE, 5))).toEqual(['we_1/cus_1']);
  });

  it('hands out a held lane again once its pause is over', () => {
    const book = given(lane('cus_1', 1));
    book.take(WE, 1);
    book.hold('we_1/cus_1', 50);
    expect(book.sendingOf(WE)).toBe(0);

    book.promote(49, new Map());
    expect(book.take(WE, 1)).toEqual([]);

    book.promote(50, new Map());
    expect(ids(book.take(WE, 1))).toEqual(['we_1/cus_1']);
  });

  it('is quiet only while no lane is sent, waits for its record to be folded, or is held; a ready or waiting lane keeps it quiet', () => {
    const book = given(lane('cus_1', 1), lane('cus_2', 2, { due_at: LATER }));
    expect(book.quiet()).toBe(true);

    book.take(WE, 1);
    expect(book.quiet()).toBe(false);
    book.answered('we_1/cus_1');
    expect(book.quiet()).toBe(false);
    book.recorded('we_1/cus_1', 7n);
    expect(book.quiet()).toBe(false);
    book.settle(lane('cus_1', 7, { due_at: LATER }));
    expect(book.quiet()).toBe(true);

    book.promote(0, systemAt(LATER));
    expect(book.quiet()).toBe(true);
    for (const { id } of book.take(WE, 2)) book.hold(id, 10);
    expect(book.quiet()).toBe(false);
    book.promote(10, new Map());
    expect(book.quiet()).toBe(true);
  });
});
