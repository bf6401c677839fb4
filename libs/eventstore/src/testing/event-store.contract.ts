import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SystemClock, UlidGenerator } from '@tally/kernel';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type EventSubscription,
  type NewEvent,
  type RecordedEvent,
} from '../event-store.port';

export interface EventStoreContractOptions {
  /** The store from makeStore() holds no event yet (a shared server keeps data between runs). */
  startsEmpty?: boolean;
  /** A live append must reach a waiting subscription within this time (proves there is no polling delay). */
  liveDeliveryWithinMs?: number;
}

const WAIT_MS = 5_000;
const SLOW_TEST_MS = 20_000;

/**
 * The behaviour every EventStore adapter must have. Stream names are unique per run, and every
 * read of the global order starts at the head seen before the test, so the suite also runs against
 * a server that keeps data between runs.
 */
export function describeEventStoreContract(
  name: string,
  makeStore: () => Promise<{ store: EventStore; cleanup(): Promise<void> }>,
  options: EventStoreContractOptions = {},
): void {
  describe(`EventStore contract: ${name}`, () => {
    const run = randomBytes(4).toString('hex');
    const ids = new UlidGenerator(new SystemClock());
    let counter = 0;
    let store: EventStore;
    let cleanup: () => Promise<void>;

    /** `<category><run>-<n>`, so `<category><run>` is a prefix of this run's streams of that category. */
    const category = (label: string): string => `${label}${run}`;
    const streamOf = (label: string): string => `${category(label)}-${++counter}`;

    const event = (type: string, data: unknown = { n: counter }, metadata: Partial<EventMetadata> = {}): NewEvent => ({
      id: ids.ulid(),
      type,
      data,
      metadata: {
        tenant_id: 'ten_contract',
        environment: 'sandbox',
        actor: 'contract-test',
        request_id: null,
        causation_id: null,
        correlation_id: null,
        occurred_at: '2026-01-02T03:04:05.678Z',
        schema_version: 1,
        ...metadata,
      },
    });

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    describe('append and readStream', () => {
      it('reads back the events in order, with 0-based revisions, ids, types, data and metadata', async () => {
        const stream = streamOf('order');
        const first = [event('Opened', { a: 1 }), event('Changed', { a: 2 })];
        const second = [event('Closed', { a: 3 })];

        const r1 = await store.append(stream, first, { expectedRevision: 'no_stream' });
        const r2 = await store.append(stream, second, { expectedRevision: 1 });
        const read = await store.readStream(stream);

        expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(read.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual([...first, ...second]);
        expect(read.every((e) => e.stream === stream)).toBe(true);
        expect(r1.revision).toBe(1);
        expect(r2.revision).toBe(2);
        expect(r1.position).toBe(read[1].position);
        expect(r2.position).toBe(read[2].position);
      });

      it('keeps a large batch whole and in order, its position that of its last event', async () => {
        const stream = streamOf('order');
        const batch = Array.from({ length: 123 }, (_, i) => event('Line', { i }));
        const result = await store.append(stream, batch, { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream);

        expect(read.map(({ id, data }) => ({ id, data }))).toEqual(batch.map(({ id, data }) => ({ id, data })));
        expect(read.map((e) => e.revision)).toEqual(batch.map((_, i) => i));
        for (let i = 1; i < read.length; i++) expect(read[i].position).toBeGreaterThan(read[i - 1].position);
        expect(result).toEqual({ revision: 122, position: read[122].position });
      });

      it("tells where a stream's last event is, as its append answered", async () => {
        const stream = streamOf('order');
        await store.append(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });
        await store.append(streamOf('other'), [event('X')], { expectedRevision: 'no_stream' });
        const appended = await store.append(stream, [event('C')], { expectedRevision: 1 });

        expect(await store.lastEventOf(stream)).toEqual(appended);
        expect(await store.lastEventOf(streamOf('missing'))).toBeUndefined();
      });

      it('reads from a revision, and an unknown stream as empty', async () => {
        const stream = streamOf('order');
        await store.append(stream, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });

        expect((await store.readStream(stream, { fromRevision: 1 })).map((e) => e.type)).toEqual(['B', 'C']);
        expect(await store.readStream(stream, { fromRevision: 3 })).toEqual([]);
        expect(await store.readStream(streamOf('missing'))).toEqual([]);
      });

      it('reads several streams at once, each from its revision, as readStream reads each', async () => {
        const [order, invoice, empty, missing] = [streamOf('order'), streamOf('invoice'), streamOf('empty'), streamOf('missing')];
        await store.append(order, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
        await store.append(invoice, [event('X'), event('Y')], { expectedRevision: 'no_stream' });
        await store.append(empty, [event('E')], { expectedRevision: 'no_stream' });
        await store.append(order, [event('D')], { expectedRevision: 2 });

        const read = await store.readStreams([
          { stream: order, fromRevision: 1 },
          { stream: invoice, fromRevision: 0 },
          { stream: empty, fromRevision: 1 },
          { stream: missing, fromRevision: 0 },
        ]);

        expect([...read.keys()].sort()).toEqual([order, invoice, empty, missing].sort());
        expect(read.get(order)).toEqual(await store.readStream(order, { fromRevision: 1 }));
        expect(read.get(order)!.map((e) => `${e.type}${e.revision}`)).toEqual(['B1', 'C2', 'D3']);
        expect(read.get(invoice)).toEqual(await store.readStream(invoice));
        expect(read.get(empty)).toEqual([]);
        expect(read.get(missing)).toEqual([]);
        expect(await store.readStreams([])).toEqual(new Map());
        await expect(store.readStreams([{ stream: order, fromRevision: 0 }, { stream: order, fromRevision: 2 }])).rejects.toThrow(RangeError);
      });

      it('reads a page forwards: from a revision, at most limit events', async () => {
        const stream = streamOf('order');
        await store.append(stream, ['A', 'B', 'C', 'D', 'E'].map((type) => event(type)), { expectedRevision: 'no_stream' });
        const page = (options: Parameters<EventStore['readStream']>[1]) => store.readStream(stream, options).then((read) => read.map((e) => `${e.type}${e.revision}`));

        expect(await page({ limit: 2 })).toEqual(['A0', 'B1']);
        expect(await page({ fromRevision: 2, limit: 2 })).toEqual(['C2', 'D3']);
        expect(await page({ fromRevision: 3, limit: 10 })).toEqual(['D3', 'E4']);
        expect(await page({ fromRevision: 5, limit: 2 })).toEqual([]);
        expect(await page({ limit: 0 })).toEqual([]);
        expect(await page({ direction: 'forwards', fromRevision: 4 })).toEqual(['E4']);
      });

      it('reads backwards, newest first: from the end, or from a revision (inclusive)', async () => {
        const stream = streamOf('order');
        await store.append(stream, ['A', 'B', 'C', 'D', 'E'].map((type) => event(type)), { expectedRevision: 'no_stream' });
        const page = (options: Parameters<EventStore['readStream']>[1]) => store.readStream(stream, options).then((read) => read.map((e) => `${e.type}${e.revision}`));

        expect(await page({ direction: 'backwards' })).toEqual(['E4', 'D3', 'C2', 'B1', 'A0']);
        expect(await page({ direction: 'backwards', limit: 2 })).toEqual(['E4', 'D3']);
        expect(await page({ direction: 'backwards', fromRevision: 2, limit: 2 })).toEqual(['C2', 'B1']);
        expect(await page({ direction: 'backwards', fromRevision: 0, limit: 5 })).toEqual(['A0']);
        expect(await page({ direction: 'backwards', limit: 0 })).toEqual([]);
        const [newest] = await store.readStream(stream, { direction: 'backwards', limit: 1 });
        expect(newest).toEqual((await store.readStream(stream, { fromRevision: 4 }))[0]);
        expect(await store.readStream(streamOf('missing'), { direction: 'backwards', limit: 1 })).toEqual([]);
      });

      it('round-trips data and metadata exactly', async () => {
        const stream = streamOf('order');
        const data = { text: 'Zürich – 東京 ✓', amount: '12.50', nested: { list: [1, 'two', null, true, { deep: false }] }, none: null, zero: 0 };
        const metadata: Partial<EventMetadata> = {
          tenant_id: 'ten_01JABCDEF',
          environment: 'live',
          actor: 'key:rk_live_x',
          request_id: 'req_1',
          causation_id: 'evt_01J0000000000000000000000A',
          correlation_id: 'req_1',
          occurred_at: '2026-02-28T23:59:59.999Z',
          schema_version: 3,
          input_id: 'timer:inv_1:dunning:2',
        };
        const written = event('Recorded', data, metadata);
        const before = await store.headPosition();
        await store.append(stream, [written], { expectedRevision: 'any' });

        const [fromStream] = await store.readStream(stream);
        const [fromAll] = await store.readAll({ fromPosition: before, limit: 1, filter: { streamPrefixes: [stream] } });
        expect(fromStream.data).toEqual(data);
        expect(fromStream.metadata).toEqual(written.metadata);
        expect(fromAll).toEqual(fromStream);
      });
    });

    describe('expected revision', () => {
      it('no_stream accepts a new stream and rejects an existing one', async () => {
        const stream = streamOf('order');
        await store.append(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });

        const error = await store.append(stream, [event('C')], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
      });

      it('an exact revision must be the last one; a stale one appends nothing, not even part of the batch', async () => {
        const stream = streamOf('order');
        await store.append(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });

        const error = await store.append(stream, [event('C'), event('D')], { expectedRevision: 0 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ stream, expected: 0, actual: 1 });
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);

        await store.append(stream, [event('C')], { expectedRevision: 1 });
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      });

      it('an exact revision on a missing stream fails with actual no_stream', async () => {
        const stream = streamOf('order');
        const error = await store.append(stream, [event('A')], { expectedRevision: 0 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ stream, expected: 0, actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('any appends to a new and to an existing stream', async () => {
        const stream = streamOf('order');
        expect((await store.append(stream, [event('A')], { expectedRevision: 'any' })).revision).toBe(0);
        expect((await store.append(stream, [event('B'), event('C')], { expectedRevision: 'any' })).revision).toBe(2);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('of concurrent appends with the same expected revision exactly one wins', async () => {
        const stream = streamOf('order');
        await store.append(stream, [event('Opened')], { expectedRevision: 'no_stream' });
        const contenders = Array.from({ length: 5 }, (_, i) => event(`Change${i}`));

        const results = await Promise.allSettled(contenders.map((e) => store.append(stream, [e], { expectedRevision: 0 })));

        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [contenders[i]] : []));
        const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(4);
        for (const error of lost) expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        const read = await store.readStream(stream);
        expect(read.map((e) => e.id)).toEqual([read[0].id, won[0].id]);
      });
      it('concurrent appends to several streams are each their own: a stale one fails alone, the others commit whole', async () => {
        const [fresh, other, stale] = [streamOf('order'), streamOf('order'), streamOf('order')];
        await store.append(stale, [event('Opened')], { expectedRevision: 'no_stream' });

        const results = await Promise.allSettled([
          store.append(fresh, [event('A0'), event('A1')], { expectedRevision: 'no_stream' }),
          store.append(stale, [event('Late')], { expectedRevision: 'no_stream' }),
          store.append(other, [event('B0')], { expectedRevision: 'no_stream' }),
        ]);

        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect((await store.readStream(fresh)).map((e) => e.type)).toEqual(['A0', 'A1']);
        expect((await store.readStream(other)).map((e) => e.type)).toEqual(['B0']);
        expect((await store.readStream(stale)).map((e) => e.type)).toEqual(['Opened']);
      });
    });

    describe('global order', () => {
      it('positions strictly increase across streams, in append order', async () => {
        const before = await store.headPosition();
        const a = streamOf('order');
        const b = streamOf('order');
        const appended: NewEvent[] = [];
        const results = [];
        for (const [stream, batch, expected] of [
          [a, [event('A0'), event('A1')], 'no_stream'],
          [b, [event('B0')], 'no_stream'],
          [a, [event('A2')], 1],
          [b, [event('B1'), event('B2'), event('B3')], 0],
        ] as const) {
          results.push(await store.append(stream, batch, { expectedRevision: expected }));
          appended.push(...batch);
        }

        const all = await store.readAll({ fromPosition: before, limit: 100, filter: { streamPrefixes: [category('order')] } });
        const ours = all.filter((e) => e.stream === a || e.stream === b);
        expect(ours.map((e) => e.id)).toEqual(appended.map((e) => e.id));
        for (let i = 1; i < ours.length; i++) expect(ours[i].position).toBeGreaterThan(ours[i - 1].position);
        expect(results.map((r) => r.position)).toEqual([ours[1], ours[2], ours[3], ours[6]].map((e) => e.position));
        expect(await store.headPosition()).toBe(ours[6].position);
      });

      it('readAll starts after fromPosition (exclusive), stops at limit and filters by stream prefix', async () => {
        const before = await store.headPosition();
        const order = streamOf('order');
        const invoice = streamOf('invoice');
        const payment = streamOf('payment');
        await store.append(order, [event('O0'), event('O1')], { expectedRevision: 'no_stream' });
        await store.append(invoice, [event('I0')], { expectedRevision: 'no_stream' });
        await store.append(payment, [event('P0')], { expectedRevision: 'no_stream' });
        await store.append(order, [event('O2')], { expectedRevision: 1 });
        const mine = { streamPrefixes: [category('order'), category('invoice'), category('payment')] };

        const all = await store.readAll({ fromPosition: before, limit: 100, filter: mine });
        expect(all.map((e) => e.type)).toEqual(['O0', 'O1', 'I0', 'P0', 'O2']);

        const afterSecond = await store.readAll({ fromPosition: all[1].position, limit: 100, filter: mine });
        expect(afterSecond.map((e) => e.type)).toEqual(['I0', 'P0', 'O2']);

        const limited = await store.readAll({ fromPosition: before, limit: 2, filter: mine });
        expect(limited.map((e) => e.type)).toEqual(['O0', 'O1']);

        const orders = await store.readAll({ fromPosition: before, limit: 100, filter: { streamPrefixes: [category('order')] } });
        expect(orders.map((e) => e.type)).toEqual(['O0', 'O1', 'O2']);

        const two = await store.readAll({ fromPosition: before, limit: 100, filter: { streamPrefixes: [category('invoice'), category('payment')] } });
        expect(two.map((e) => e.type)).toEqual(['I0', 'P0']);

        expect(await store.readAll({ fromPosition: all[4].position, limit: 100, filter: mine })).toEqual([]);
      });

      if (options.startsEmpty) {
        it('an empty store has no head and reads nothing', async () => {
          expect(await store.headPosition()).toBeUndefined();
          expect(await store.readAll({ limit: 10 })).toEqual([]);
        });

        it('readAll without a filter or position reads everything from the start', async () => {
          await store.append(streamOf('order'), [event('A')], { expectedRevision: 'no_stream' });
          await store.append(streamOf('invoice'), [event('B')], { expectedRevision: 'no_stream' });
          expect((await store.readAll({ limit: 10 })).map((e) => e.type)).toEqual(['A', 'B']);
        });
      }
    });

    describe('subscribeToAll', () => {
      it(
        'catches up, then receives new appends',
        async () => {
          const before = await store.headPosition();
          const stream = streamOf('order');
          await store.append(stream, [event('Old0'), event('Old1')], { expectedRevision: 'no_stream' });
          const consumer = consume(store.subscribeToAll({ fromPosition: before, filter: { streamPrefixes: [category('order')] } }));

          expect((await consumer.waitFor(2)).map((e) => e.type)).toEqual(['Old0', 'Old1']);
          const live: number[] = [];
          for (let i = 0; i < 3; i++) {
            // Let the subscription settle into waiting before the next append.
            await sleep(60);
            const appendedAt = performance.now();
            await store.append(stream, [event(`New${i}`)], { expectedRevision: 1 + i });
            await consumer.waitFor(3 + i);
            live.push(consumer.arrivals[2 + i] - appendedAt);
          }

          expect(consumer.events.map((e) => e.type)).toEqual(['Old0', 'Old1', 'New0', 'New1', 'New2']);
          expect(consumer.events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
          if (options.liveDeliveryWithinMs !== undefined) expect(Math.max(...live)).toBeLessThan(options.liveDeliveryWithinMs);
          await consumer.stop();
        },
        SLOW_TEST_MS,
      );

      it(
        'delivers only the filtered streams, exactly as readAll returns them',
        async () => {
          const before = await store.headPosition();
          await store.append(streamOf('order'), [event('O0')], { expectedRevision: 'no_stream' });
          await store.append(streamOf('invoice'), [event('I0', { x: [1, 2] }, { input_id: 'in_1' })], { expectedRevision: 'no_stream' });
          await store.append(streamOf('payment'), [event('P0')], { expectedRevision: 'no_stream' });
          const filter = { streamPrefixes: [category('invoice'), category('payment')] };
          const consumer = consume(store.subscribeToAll({ fromPosition: before, filter }));

          const received = await consumer.waitFor(2);
          expect(received).toEqual(await store.readAll({ fromPosition: before, limit: 10, filter }));
          expect(received.map((e) => e.type)).toEqual(['I0', 'P0']);
          await consumer.stop();
        },
        SLOW_TEST_MS,
      );

      it(
        'from a position, skips that event and every earlier one',
        async () => {
          const stream = streamOf('order');
          await store.append(stream, [event('E0'), event('E1'), event('E2')], { expectedRevision: 'no_stream' });
          const [, second] = await store.readStream(stream);
          const consumer = consume(store.subscribeToAll({ fromPosition: second.position, filter: { streamPrefixes: [category('order')] } }));

          expect((await consumer.waitFor(1)).map((e) => e.type)).toEqual(['E2']);
          await store.append(stream, [event('E3')], { expectedRevision: 2 });
          expect((await consumer.waitFor(2)).map((e) => e.type)).toEqual(['E2', 'E3']);
          await consumer.stop();
        },
        SLOW_TEST_MS,
      );

      it(
        'close() ends an iteration that is waiting for events',
        async () => {
          const before = await store.headPosition();
          const stream = streamOf('order');
          await store.append(stream, [event('E0')], { expectedRevision: 'no_stream' });
          const subscription = store.subscribeToAll({ fromPosition: before, filter: { streamPrefixes: [category('order')] } });
          const consumer = consume(subscription);
          await consumer.waitFor(1);
          await sleep(50);

          const closedAt = performance.now();
          await subscription.close();
          await withTimeout(consumer.finished, 2_000, 'iteration did not end after close()');
          expect(performance.now() - closedAt).toBeLessThan(2_000);

          await store.append(stream, [event('E1')], { expectedRevision: 0 });
          await sleep(100);
          expect(consumer.events.map((e) => e.type)).toEqual(['E0']);
        },
        SLOW_TEST_MS,
      );

      it(
        'breaking out of for await ends the subscription',
        async () => {
          const before = await store.headPosition();
          const stream = streamOf('order');
          await store.append(stream, [event('E0'), event('E1'), event('E2')], { expectedRevision: 'no_stream' });
          const iterator = store.subscribeToAll({ fromPosition: before, filter: { streamPrefixes: [category('order')] } })[Symbol.asyncIterator]();

          const seen: string[] = [];
          for await (const e of { [Symbol.asyncIterator]: () => iterator }) {
            seen.push(e.type);
            break;
          }

          expect(seen).toEqual(['E0']);
          await expect(withTimeout(iterator.next(), 2_000, 'iterator still running after break')).resolves.toEqual({ done: true, value: undefined });
        },
        SLOW_TEST_MS,
      );

      it('store.close() ends its open subscriptions', async () => {
        const consumer = consume(store.subscribeToAll({ filter: { streamPrefixes: [category('none')] } }));
        await sleep(50);
        await store.close();
        await withTimeout(consumer.finished, 2_000, 'iteration did not end after store.close()');
        expect(consumer.events).toEqual([]);
      });
    });
  });
}

interface Consumer {
  events: RecordedEvent[];
  /** performance.now() at which each event arrived. */
  arrivals: number[];
  finished: Promise<void>;
  waitFor(count: number): Promise<RecordedEvent[]>;
  stop(): Promise<void>;
}

/** Iterates a subscription in the background, the way projections do. */
function consume(subscription: EventSubscription): Consumer {
  const events: RecordedEvent[] = [];
  const arrivals: number[] = [];
  let notify = (): void => undefined;
  const finished = (async () => {
    for await (const e of subscription) {
      events.push(e);
      arrivals.push(performance.now());
      notify();
    }
  })();
  return {
    events,
    arrivals,
    finished,
    async waitFor(count) {
      const reached = new Promise<void>((resolve) => {
        notify = () => events.length >= count && resolve();
        notify();
      });
      await withTimeout(Promise.race([reached, finished]), WAIT_MS, `expected ${count} events, got ${events.length}`);
      expect(events.length).toBeGreaterThanOrEqual(count);
      return events.slice(0, count);
    },
    async stop() {
      await subscription.close();
      await finished;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${message}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
