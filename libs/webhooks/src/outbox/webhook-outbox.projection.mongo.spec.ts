import type { Db } from 'mongodb';
import { encodePosition, MongoReadStore, type After, type ReadStore } from '@tally/readstore';
import { CHECKPOINTS } from '@tally/readstore/names';
import { describeOnMongo, dyingAt, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { laneId, WEBHOOK_DELIVERIES, WEBHOOK_LANES, type DeliveryDoc, type LaneDoc } from './outbox-documents';
import { attempted, created, customer, deliveryOf, projectInto, WE } from './testing/outbox-log';
import { WEBHOOK_OUTBOX } from './webhook-outbox.projection';

/** The lanes changed after `from` up to `upTo`, in the order of their changes, a page of `limit` at a time: the dispatcher's read. */
async function lanesChanged(store: ReadStore, from: bigint, upTo: bigint, limit: number): Promise<string[]> {
  const where = [
    { field: 'changed_at', op: 'gt' as const, value: encodePosition(from) },
    { field: 'changed_at', op: 'lte' as const, value: encodePosition(upTo) },
  ];
  const ids: string[] = [];
  for (let after: After | undefined; ; ) {
    const { items, hasMore } = await store.find<LaneDoc>(WEBHOOK_LANES, { where, sort: { field: 'changed_at', direction: 'asc' }, after, limit });
    ids.push(...items.map((lane) => lane.id));
    if (!hasMore) return ids;
    const last = items[items.length - 1];
    after = { value: last.changed_at, id: last.id };
  }
}

describeOnMongo('the webhook outbox on MongoDB (the production read store)', () => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeEach(async () => ({ db, cleanup } = await openTestDatabase('tally_webhooks')));
  afterEach(() => cleanup());

  it('queues an aggregate’s deliveries in a lane and moves on when the first succeeds, as on SQLite', async () => {
    const events = [created(WE, ['*']), customer('cus_1'), customer('cus_1'), customer('cus_1')];
    const [, one, two, three] = events;
    const store = await projectInto(new MongoReadStore(db), [...events, attempted(deliveryOf(WE, one), 1, 'succeeded')]);

    expect(await store.get<LaneDoc>(WEBHOOK_LANES, laneId(WE, 'cus_1'))).toMatchObject({ head: deliveryOf(WE, two), tail: deliveryOf(WE, three) });
    expect(await store.get<DeliveryDoc>(WEBHOOK_DELIVERIES, deliveryOf(WE, one))).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(await store.get<DeliveryDoc>(WEBHOOK_DELIVERIES, deliveryOf(WE, two))).toMatchObject({ status: 'pending', next_in_lane: deliveryOf(WE, three) });
  });

  it('gives the dispatcher the lanes changed between two positions, in the order of their changes, page by page, and no emptied lane', async () => {
    const start = [created(WE, ['*']), customer('cus_1'), customer('cus_2')];
    const later = [customer('cus_3'), attempted(deliveryOf(WE, start[1]), 1, 'succeeded'), customer('cus_2'), customer('cus_4')];
    const store = await projectInto(new MongoReadStore(db), [...start, ...later]);
    const checkpoint = (await store.getCheckpoint(WEBHOOK_OUTBOX))!;

    // cus_1's lane emptied; cus_2's changed again after cus_3's was made.
    expect(await lanesChanged(store, start[2].position, checkpoint, 2)).toEqual([laneId(WE, 'cus_3'), laneId(WE, 'cus_2'), laneId(WE, 'cus_4')]);
    expect(await lanesChanged(store, later[2].position, checkpoint, 2)).toEqual([laneId(WE, 'cus_4')]);
  });

  it('feeds nothing of a commit that died before its checkpoint, and all of it once the commit is finished', async () => {
    const first = [created(WE, ['*']), customer('cus_1')];
    const second = customer('cus_2');
    await projectInto(new MongoReadStore(db), first);
    // The lanes and deliveries are written, then the process dies moving the checkpoint.
    const dying = new MongoReadStore(dyingAt(db, (collection, method) => collection === CHECKPOINTS && method === 'updateOne'));
    await expect(projectInto(dying, [second])).rejects.toThrow('the process died');

    // Documents landed past the checkpoint, which still names the first commit.
    const stored = await db.collection<{ _id: string; position: string }>(CHECKPOINTS).findOne({ _id: WEBHOOK_OUTBOX });
    expect(stored?.position).toBe(encodePosition(first[1].position));
    const restarted = new MongoReadStore(db);
    const written = await restarted.find<LaneDoc>(WEBHOOK_LANES, { where: [{ field: 'changed_at', op: 'gt', value: stored!.position }], limit: 10 });
    expect(written.items.map((lane) => lane.id)).toEqual([laneId(WE, 'cus_2')]);
    // A read bounded by that checkpoint leaves them out.
    expect(await lanesChanged(restarted, 0n, first[1].position, 10)).toEqual([laneId(WE, 'cus_1')]);

    // A reader of the checkpoint (the dispatcher) still sees the first commit's.
    expect(await restarted.getCheckpoint(WEBHOOK_OUTBOX)).toBe(first[1].position);
    // The outbox's runner, resuming, finishes the commit, and the next read takes them in.
    const checkpoint = (await restarted.recoverCheckpoint(WEBHOOK_OUTBOX))!;
    expect(checkpoint).toBe(second.position);
    expect(await lanesChanged(restarted, first[1].position, checkpoint, 10)).toEqual([laneId(WE, 'cus_2')]);
  });
});
