import type { Db } from 'mongodb';
import type { RecordedEvent } from '@tally/eventstore';
import { MongoReadStore, type ReadStore } from '@tally/readstore';
import { describeOnMongo, dyingAt, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { UnitOfWork } from '@tally/runtime';
import { bucketId, usageProjection, USAGE_BUCKETS, USAGE_PROJECTION, type UsageBucketDoc } from './usage.projection';
import { batch, created, JUNE, SUB, usage } from './testing/usage-log';

/** One unit of work over `events`, committed as a runner commits it. */
async function projectInOneCommit(store: ReadStore, events: readonly RecordedEvent[]): Promise<void> {
  const unit = new UnitOfWork(store);
  for (const event of events) await usageProjection.handle(event, unit.writerFor(event));
  await unit.commit(USAGE_PROJECTION);
}

describeOnMongo('the usage projection on MongoDB, when the process dies inside a commit', () => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeEach(async () => ({ db, cleanup } = await openTestDatabase('tally_usage')));
  afterEach(() => cleanup());

  it('counts every event once after the restart: the commit is finished, not folded again', async () => {
    const log = [
      created(),
      batch([usage('a', '5', '2026-06-02T00:00:00.000Z'), usage('b', '2', '2026-06-03T00:00:00.000Z')]),
      batch([usage('a', '5', '2026-06-02T00:00:00.000Z'), usage('c', '1', '2026-06-04T00:00:00.000Z')], 'ubat_2'),
    ];
    await projectInOneCommit(new MongoReadStore(db), log.slice(0, 1));
    // The buckets are written, then the process dies adding the batch's dedupe keys, before the checkpoint.
    const dying = new MongoReadStore(dyingAt(db, (collection, method) => collection === 'usage_dedupe' && method === 'insertMany'));
    await expect(projectInOneCommit(dying, log.slice(1, 2))).rejects.toThrow('the process died');

    const restarted = new MongoReadStore(db);
    const from = await restarted.recoverCheckpoint(USAGE_PROJECTION);
    await projectInOneCommit(restarted, log.filter((event) => from === undefined || event.position > from));

    const june = await restarted.get<UsageBucketDoc>(USAGE_BUCKETS, bucketId(SUB, 'calls', JUNE.start));
    expect(june).toMatchObject({ sum: '8', count: 3 });
  });
});
