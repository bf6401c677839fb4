import fc from 'fast-check';
import type { RecordedEvent } from '@tally/eventstore';
import Database from 'better-sqlite3';
import { SqliteReadStore, type ReadStore } from '@tally/readstore';
import { UnitOfWork } from '@tally/runtime';
import Big from 'big.js';
import { billable, readMeter, type MeterSpec } from './domain/usage-bucket';
import { bucketId, usageProjection, USAGE_BUCKETS, USAGE_DEDUPE, USAGE_PROJECTION, type UsageBucketDoc } from './usage.projection';
import { usageDedupeKey } from './usage-dedupe-key';
import { batch, created, JULY, JUNE, rebillable, renewed, settled, SUB, usage } from './testing/usage-log';

const databases: Database.Database[] = [];
afterEach(() => databases.splice(0).forEach((db) => db.close()));

/** Runs the projection as a live runner does, over a unit of work and a read store (SQLite in memory), committing after each event. */
async function project(events: readonly RecordedEvent[]): Promise<ReadStore> {
  const db = new Database(':memory:');
  databases.push(db);
  const store = new SqliteReadStore(db);
  const unit = new UnitOfWork(store);
  for (const event of events) {
    await usageProjection.handle(event, unit.writerFor(event));
    await unit.commit(USAGE_PROJECTION);
  }
  return store;
}

async function bucketsOf(store: ReadStore): Promise<UsageBucketDoc[]> {
  const buckets = await Promise.all([JUNE, JULY].map((period) => store.get<UsageBucketDoc>(USAGE_BUCKETS, bucketId(SUB, 'calls', period.start))));
  return buckets.filter((bucket): bucket is UsageBucketDoc => bucket !== undefined);
}

const SPECS: MeterSpec[] = (['sum', 'count', 'max', 'last_during_period', 'unique_count', 'weighted_sum'] as const).flatMap((aggregation) =>
  (['period', 'never'] as const).map((usage_cycle) => ({ aggregation, usage_cycle, unique_property: aggregation === 'unique_count' ? 'user' : null })),
);

async function readAll(store: ReadStore): Promise<string[]> {
  const buckets = await bucketsOf(store);
  return [JUNE, JULY].flatMap((period) => SPECS.map((spec) => {
    const reading = readMeter(spec, buckets, period);
    return `${period.start} ${spec.aggregation}/${spec.usage_cycle}: ${reading.quantity.toFixed()} (${reading.events}, late ${reading.late_events})`;
  }));
}

describe('the usage projection', () => {
  it('counts each (subscription, meter, external id) once: later copies change nothing, even with another quantity', async () => {
    const store = await project([created(), batch([usage('a', '5', '2026-06-02T00:00:00.000Z'), usage('a', '500', '2026-06-03T00:00:00.000Z')]), batch([usage('a', '7', '2026-06-02T00:00:00.000Z')])]);
    const [june] = await bucketsOf(store);
    expect(readMeter({ aggregation: 'sum', usage_cycle: 'period', unique_property: null }, [june], JUNE)).toEqual({ quantity: expect.anything(), events: 1, late_events: 0 });
    expect(june.sum).toBe('5');
  });

  it('keeps with each key where the event that counted it is in the log: its batch’s position and its index there', async () => {
    const log = [created(), batch([usage('a', '5', '2026-06-02T00:00:00.000Z'), usage('b', '1', '2026-06-02T00:00:00.000Z')]), batch([usage('b', '7', '2026-06-03T00:00:00.000Z'), usage('c', '2', '2026-06-03T00:00:00.000Z')], 'ubat_2')];
    const store = await project(log);
    const keys = ['a', 'b', 'c'].map((id) => usageDedupeKey({ subscription_id: SUB, meter: 'calls', external_id: id }));
    const refs = await store.keyRefs(USAGE_DEDUPE, keys);
    expect(keys.map((key) => refs.get(key))).toEqual([`${log[1].position}/0`, `${log[1].position}/1`, `${log[2].position}/1`]);
  });

  it('dedupes for 40 days of the log (by the hour) after the batch that counted a key, and counts a copy that comes later', async () => {
    const first = usage('a', '5', '2026-06-02T00:00:00.000Z');
    const store = await project([
      created(),
      batch([first], 'ubat_1', '2026-06-02T00:30:00.000Z'),
      batch([first], 'ubat_2', '2026-07-12T00:59:59.999Z'),
      batch([first], 'ubat_3', '2026-07-12T01:00:00.000Z'),
      batch([first], 'ubat_4', '2026-08-21T01:59:59.999Z'),
    ]);
    const [june] = await bucketsOf(store);
    expect([june.count, june.sum]).toEqual([2, '10']);
  });

  it('places an event dated in a closed period in the open one, as late', async () => {
    const store = await project([created(), renewed(), batch([usage('late', '3', '2026-06-30T00:00:00.000Z'), usage('on-time', '4', '2026-07-02T00:00:00.000Z')])]);
    const buckets = await bucketsOf(store);
    expect(buckets.map((bucket) => [bucket.period.start, bucket.sum, bucket.count, bucket.late_events])).toEqual([[JULY.start, '7', 2, 1]]);
  });

  describe('under rebill', () => {
    const sums = async (store: ReadStore) => (await bucketsOf(store)).map((bucket) => [bucket.period.start, bucket.sum, bucket.late_events]);

    it('holds a late event of the period closed less than 24 hours ago, counted nowhere until the rebill decides', async () => {
      expect(await sums(await project([created(), renewed(), batch([rebillable('a', '2026-07-01T23:59:59.999Z')])]))).toEqual([]);
    });

    it('counts held events in their own period once rebilled', async () => {
      expect(await sums(await project([created(), renewed(), batch([rebillable('a', '2026-07-01T10:00:00.000Z')]), settled('rebilled')]))).toEqual([[JUNE.start, '3', 0]]);
    });

    it('counts held events in the open period, as late, once deferred; a second outcome changes nothing', async () => {
      const events = [created(), renewed(), batch([rebillable('a', '2026-07-01T10:00:00.000Z')]), settled('deferred'), settled('rebilled')];
      expect(await sums(await project(events))).toEqual([[JULY.start, '3', 1]]);
    });

    it('counts a late event that came more than 24 hours after the close in the open period at once', async () => {
      expect(await sums(await project([created(), renewed(), batch([rebillable('a', '2026-07-02T00:00:00.001Z')])]))).toEqual([[JULY.start, '3', 1]]);
    });

    it('still merges a duplicate of a held event', async () => {
      const events = [created(), renewed(), batch([rebillable('a', '2026-07-01T10:00:00.000Z')]), batch([rebillable('a', '2026-07-01T11:00:00.000Z')], 'ubat_2'), settled('rebilled'), settled('rebilled', 'ubat_2')];
      expect(await sums(await project(events))).toEqual([[JUNE.start, '3', 0]]);
    });
  });

  it('counts an event dated before the subscription began in the open period, not as late', async () => {
    const store = await project([created(), batch([usage('before', '2', '2026-05-31T23:59:59.999Z')])]);
    expect((await bucketsOf(store)).map((bucket) => [bucket.period, bucket.sum, bucket.late_events])).toEqual([[JUNE, '2', 0]]);
  });

  it('places an event of a period whose close is not recorded yet in that period', async () => {
    const store = await project([created(), batch([usage('early', '2', '2026-07-03T00:00:00.000Z')])]);
    expect((await bucketsOf(store)).map((bucket) => [bucket.period, bucket.sum])).toEqual([[JULY, '2']]);
  });

  it('moves a value first seen later to the earlier period that also has it', async () => {
    const store = await project([created(), batch([usage('b', '1', '2026-07-02T00:00:00.000Z', { user: 'u1' }), usage('a', '1', '2026-06-02T00:00:00.000Z', { user: 'u1' })])]);
    const buckets = await bucketsOf(store);
    const unique = (usage_cycle: 'period' | 'never', period: typeof JUNE) => readMeter({ aggregation: 'unique_count', usage_cycle, unique_property: 'user' }, buckets, period).quantity.toFixed();
    expect([unique('period', JUNE), unique('period', JULY), unique('never', JUNE), unique('never', JULY)]).toEqual(['1', '1', '1', '1']);
  });

  it('counts distinct events (each external id once) for unique_count without a property, as the spec writes the component', async () => {
    const store = await project([created(), batch([usage('a', '5', '2026-06-02T00:00:00.000Z', { user: 'u1' }), usage('b', '1', '2026-06-03T00:00:00.000Z', { user: 'u1' }), usage('a', '7', '2026-06-04T00:00:00.000Z')]), renewed(), batch([usage('c', '1', '2026-07-02T00:00:00.000Z')])]);
    const buckets = await bucketsOf(store);
    const unique = (usage_cycle: 'period' | 'never', period: typeof JUNE) => readMeter({ aggregation: 'unique_count', usage_cycle, unique_property: null }, buckets, period).quantity.toFixed();
    expect([unique('period', JUNE), unique('period', JULY), unique('never', JULY)]).toEqual(['2', '1', '3']);
  });

  it('weighs each level up to the end of the period read, when that period is cut short (a cancellation, or read as if it closed now)', async () => {
    const store = await project([created(), batch([usage('a', '10', '2026-06-01T00:00:00.000Z'), usage('b', '20', '2026-06-16T00:00:00.000Z')])]);
    const buckets = await bucketsOf(store);
    const weighted = (end: string) => readMeter({ aggregation: 'weighted_sum', usage_cycle: 'period', unique_property: null }, buckets, { start: JUNE.start, end }).quantity.toFixed();
    expect([weighted(JUNE.end), weighted('2026-06-16T00:00:00.000Z'), weighted('2026-06-21T00:00:00.000Z')]).toEqual(['20', '10', '15']);
  });

  it('bills a reading to 8 decimal places (half-even) and at most the meter’s bound, a negative one as it is', async () => {
    const store = await project([created(), batch([usage('a', '600000000000.000000005', '2026-06-02T00:00:00.000Z'), usage('b', '0.000000015', '2026-06-03T00:00:00.000Z')])]);
    const reading = readMeter({ aggregation: 'sum', usage_cycle: 'period', unique_property: null }, await bucketsOf(store), JUNE);
    expect(reading.quantity.toFixed()).toBe('600000000000.00000002');
    const bill = (quantity: string, max: string) => billable({ ...reading, quantity: new Big(quantity) }, new Big(max)).quantity.toFixed();
    expect([bill('600000000000.000000025', '999999999999.99999999'), bill('1200000000000', '999999999999.99999999'), bill('-5.5', '1'), bill('3', '3')]).toEqual([
      '600000000000.00000002',
      '999999999999.99999999',
      '-5.5',
      '3',
    ]);
    expect(billable(reading, new Big('1000')).events).toBe(2);
  });

  it('keeps user-chosen property names such as __proto__ as data', async () => {
    const properties = JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, string>;
    const store = await project([created(), batch([usage('a', '1', '2026-06-02T00:00:00.000Z', properties)])]);
    const [june] = await bucketsOf(store);
    expect(readMeter({ aggregation: 'unique_count', usage_cycle: 'period', unique_property: '__proto__' }, [june], JUNE).quantity.toFixed()).toBe('1');
    expect(readMeter({ aggregation: 'unique_count', usage_cycle: 'period', unique_property: 'toString' }, [june], JUNE).quantity.toFixed()).toBe('0');
  });

  it('reaches the same aggregates whatever the order of the events and however often each is sent', async () => {
    const eventArb = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      quantity: fc.integer({ min: -50, max: 500 }).map(String),
      day: fc.integer({ min: 1, max: 60 }),
      user: fc.constantFrom('u1', 'u2', 'u3', '__proto__'),
    });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(eventArb, { selector: (event) => event.id, minLength: 1 }), fc.infiniteStream(fc.nat()), async (events, randomness) => {
        const records = events.map((e) => usage(e.id, e.quantity, new Date(Date.parse(JUNE.start) + (e.day - 1) * 86_400_000).toISOString(), { user: e.user }));
        const copies = records.flatMap((record) => Array.from({ length: 1 + (randomness.next().value as number) % 3 }, () => record));
        const shuffled = copies.map((record) => [randomness.next().value as number, record] as const).sort(([a], [b]) => a - b).map(([, record]) => record);
        const once = await readAll(await project([created(), batch(records)]));
        const again = await readAll(await project([created(), ...shuffled.map((record) => batch([record]))]));
        expect(again).toEqual(once);
      }),
      { numRuns: 150 },
    );
  });
});
