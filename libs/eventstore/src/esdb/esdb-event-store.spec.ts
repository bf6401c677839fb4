import { PassThrough, Readable } from 'node:stream';
import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type EventStoreDBClient,
  type Position,
  type ReadAllOptions,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError, type RecordedEvent } from '../event-store.port';
import { EsdbEventStore } from './esdb-event-store';
import { encodePosition } from './esdb-position';
import type { ResubscribePolicy } from './esdb-subscription';
import { ulidToUuid } from './ulid-uuid';

const metadata = {
  tenant_id: 'ten_1',
  environment: 'sandbox',
  actor: 'test',
  request_id: null,
  causation_id: null,
  correlation_id: null,
  occurred_at: '2026-01-01T00:00:00.000Z',
  schema_version: 1,
};

let nextId = 0;
function stored(streamId: string, type: string, commit: number, prepare = commit): AllStreamRecordedEvent {
  const id = ulidToUuid(`01J${String(++nextId).padStart(23, '0')}`);
  return {
    streamId,
    id,
    revision: 0n,
    type,
    data: { type },
    metadata,
    isJson: true,
    created: new Date(0),
    position: { commit: BigInt(commit), prepare: BigInt(prepare) },
  };
}

const positionOf = (event: AllStreamRecordedEvent): bigint => encodePosition(event.position);
const after = (a: Position, b: Position): boolean => encodePosition(a) > encodePosition(b);

/** A stand-in for the parts of the client the store uses, with $all reads that include their start position. */
function fakeClient(log: AllStreamRecordedEvent[]) {
  const subscriptions: { options: SubscribeToAllOptions; stream: PassThrough & { unsubscribe(): Promise<void> } }[] = [];
  const client = {
    readAll(options: ReadAllOptions) {
      const from = options.fromPosition ?? START;
      const backwards = options.direction === BACKWARDS;
      const ordered = backwards ? [...log].reverse() : log;
      const selected = ordered.filter((e) => {
        if (from === START || from === END) return true;
        return backwards ? !after(e.position, from) : !after(from, e.position);
      });
      return Readable.from(selected.slice(0, Number(options.maxCount)).map((event) => ({ event })));
    },
    subscribeToAll(options: SubscribeToAllOptions) {
      const stream = Object.assign(new PassThrough({ objectMode: true }), { unsubscribe: jest.fn(async () => undefined) });
      subscriptions.push({ options, stream });
      return stream;
    },
    appendToStream: jest.fn(),
    readStream: jest.fn(),
  };
  return { client: client as unknown as EventStoreDBClient, raw: client, subscriptions };
}

const quickRetry: ResubscribePolicy = { initialDelayMs: 5, maxDelayMs: 20, factor: 2 };

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('EsdbEventStore (with a stand-in client)', () => {
  it('pages through $all, hides system and snapshot events, and treats fromPosition as exclusive', async () => {
    const log = [
      stored('order-1', 'A', 10),
      stored('$stats-node', 'Stats', 20),
      stored('snapshot-order-1', 'Snapshot', 30),
      stored('$$order-1', '$metadata', 40),
      stored('order-2', 'B', 50),
      ...Array.from({ length: 600 }, (_, i) => stored('invoice-1', `I${i}`, 100 + i)),
      stored('order-1', 'C', 1000),
    ];
    const { client } = fakeClient(log);
    const store = new EsdbEventStore(client);

    expect((await store.readAll({ limit: 3 })).map((e) => e.type)).toEqual(['A', 'B', 'I0']);
    expect((await store.readAll({ fromPosition: positionOf(log[0]), limit: 2 })).map((e) => e.type)).toEqual(['B', 'I0']);
    const orders = await store.readAll({ limit: 10, filter: { streamPrefixes: ['order-'] } });
    expect(orders.map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(orders[2]).toMatchObject({ stream: 'order-1', position: positionOf(log[log.length - 1]), metadata });
    expect(await store.headPosition()).toBe(positionOf(log[log.length - 1]));
  });

  it('finds the head behind a page of system events', async () => {
    const log = [stored('order-1', 'A', 10), ...Array.from({ length: 700 }, (_, i) => stored('$stats', 'Stats', 20 + i))];
    const { client } = fakeClient(log);
    expect(await new EsdbEventStore(client).headPosition()).toBe(positionOf(log[0]));
    expect(await new EsdbEventStore(fakeClient([]).client).headPosition()).toBeUndefined();
  });

  it('maps a wrong expected version to WrongExpectedRevisionError', async () => {
    const { client, raw } = fakeClient([]);
    raw.appendToStream.mockRejectedValueOnce(new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 'no_stream', current: 4n }));
    raw.appendToStream.mockRejectedValueOnce(new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 3n, current: -1n }));
    const store = new EsdbEventStore(client);
    const event = { id: '01JAAAAAAAAAAAAAAAAAAAAAAA', type: 'A', data: {}, metadata: metadata as never };

    await expect(store.append('order-1', [event], { expectedRevision: 'no_stream' })).rejects.toEqual(new WrongExpectedRevisionError('order-1', 'no_stream', 4));
    const error = await store.append('order-1', [event], { expectedRevision: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ expected: 3, actual: 'no_stream' });
    raw.appendToStream.mockRejectedValueOnce(new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 0n, current: 'no_stream' }));
    await expect(store.append('order-1', [event], { expectedRevision: 0 })).rejects.toMatchObject({ actual: 'no_stream' });
    expect(raw.appendToStream.mock.calls[1][1][0]).toMatchObject({ id: ulidToUuid(event.id), type: 'A', contentType: 'application/json' });
    expect(raw.appendToStream.mock.calls[1][2]).toEqual({ expectedRevision: 3n });
  });

  it('reads a missing stream as empty', async () => {
    const { client, raw } = fakeClient([]);
    raw.readStream.mockImplementation(() => {
      const stream = new PassThrough({ objectMode: true });
      setImmediate(() => stream.destroy(new StreamNotFoundError(undefined, 'order-9')));
      return stream;
    });
    expect(await new EsdbEventStore(client).readStream('order-9')).toEqual([]);
  });

  it('asks the server for a page of a stream in the direction given, backwards from the end by default', async () => {
    const { client, raw } = fakeClient([]);
    const event = { ...stored('order-1', 'A', 10), revision: 4n };
    raw.readStream.mockImplementation(() => Readable.from([{ event }]));
    const store = new EsdbEventStore(client);

    expect(await store.readStream('order-1', { direction: 'backwards', limit: 1 })).toEqual([expect.objectContaining({ type: 'A', revision: 4 })]);
    await store.readStream('order-1', { direction: 'backwards', fromRevision: 7, limit: 3 });
    await store.readStream('order-1', { fromRevision: 2, limit: 11 });
    await store.readStream('order-1');
    expect(await store.readStream('order-1', { limit: 0 })).toEqual([]);

    expect(raw.readStream.mock.calls).toEqual([
      ['order-1', { fromRevision: END, direction: BACKWARDS, maxCount: 1 }],
      ['order-1', { fromRevision: 7n, direction: BACKWARDS, maxCount: 3 }],
      ['order-1', { fromRevision: 2n, direction: FORWARDS, maxCount: 11 }],
      ['order-1', { fromRevision: START, direction: FORWARDS, maxCount: Number.MAX_SAFE_INTEGER }],
    ]);
  });

  describe('subscribeToAll', () => {
    it('resubscribes from the last delivered position after a drop, without delivering twice', async () => {
      const [e1, e2, e3] = [stored('order-1', 'E1', 10), stored('order-1', 'E2', 20), stored('order-2', 'E3', 30)];
      const { client, subscriptions } = fakeClient([]);
      const drops: unknown[] = [];
      const store = new EsdbEventStore(client, { ...quickRetry, onDropped: (error) => drops.push(error) });
      const received: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: ['order-'] } });
      const done = (async () => {
        for await (const event of subscription) received.push(event);
      })();

      await waitUntil(() => subscriptions.length === 1);
      expect(subscriptions[0].options.fromPosition).toBe(START);
      expect(subscriptions[0].options.filter).toMatchObject({ filterOn: 'streamName', prefixes: ['order-'] });
      subscriptions[0].stream.write({ event: e1 });
      subscriptions[0].stream.write({ event: e2 });
      await waitUntil(() => received.length === 2);
      subscriptions[0].stream.destroy(new Error('UNAVAILABLE'));

      await waitUntil(() => subscriptions.length === 2);
      expect(subscriptions[1].options.fromPosition).toEqual(e2.position);
      subscriptions[1].stream.write({ event: e2 });
      subscriptions[1].stream.write({ event: e3 });
      await waitUntil(() => received.length === 3);

      subscriptions[1].stream.end();
      await waitUntil(() => subscriptions.length === 3);
      expect(subscriptions[2].options.fromPosition).toEqual(e3.position);

      await subscription.close();
      await done;
      expect(received.map((e) => e.type)).toEqual(['E1', 'E2', 'E3']);
      expect(drops).toHaveLength(2);
      expect(subscriptions[2].stream.unsubscribe).toHaveBeenCalled();
    });

    it('without a filter excludes system events on the server and hides snapshot streams here', async () => {
      const { client, subscriptions } = fakeClient([]);
      const store = new EsdbEventStore(client, quickRetry);
      const subscription = store.subscribeToAll({});
      const received: string[] = [];
      const done = (async () => {
        for await (const event of subscription) received.push(event.type);
      })();

      await waitUntil(() => subscriptions.length === 1);
      expect(subscriptions[0].options.filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
      subscriptions[0].stream.write({ event: stored('snapshot-order-1', 'Snapshot', 10) });
      subscriptions[0].stream.write({ event: stored('order-1', 'A', 20) });
      await waitUntil(() => received.length === 1);

      await store.close();
      await done;
      expect(received).toEqual(['A']);
    });

    it('close() during the backoff delay ends the iteration without another subscription', async () => {
      const { client, subscriptions } = fakeClient([]);
      const store = new EsdbEventStore(client, { initialDelayMs: 10_000, maxDelayMs: 10_000, factor: 1 });
      const subscription = store.subscribeToAll({});
      const received: RecordedEvent[] = [];
      const done = (async () => {
        for await (const event of subscription) received.push(event);
      })();
      await waitUntil(() => subscriptions.length === 1);
      subscriptions[0].stream.destroy(new Error('dropped'));
      await new Promise((resolve) => setTimeout(resolve, 20));

      const started = performance.now();
      await subscription.close();
      await done;
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(subscriptions).toHaveLength(1);
      expect(received).toEqual([]);
    });
  });
});
