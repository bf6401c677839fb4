import type { EventSubscription, RecordedEvent } from '@tally/eventstore';
import { setTimeout as sleep } from 'node:timers/promises';
import { testMetadata } from '@tally/cells/testing/temp-cells';
import { followInBatches, ONE_LANE, PROMPT } from './follow-in-batches';

const eventAt = (position: number, stream: string): RecordedEvent => ({ id: `e${position}`, type: 'Happened', data: {}, metadata: testMetadata('2026-05-01T10:00:00.000Z'), stream, revision: 0, position: BigInt(position) });

/** A subscription that has `events` ready at once, then ends. */
const subscriptionOf = (events: RecordedEvent[]): EventSubscription => ({
  async *[Symbol.asyncIterator]() {
    yield* events;
  },
  close: async () => undefined,
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('followInBatches with lanes', () => {
  const events = [eventAt(1, 'a'), eventAt(2, 'b'), eventAt(3, 'a'), eventAt(4, 'c'), eventAt(5, 'b')];

  it('handles the ready events of different lanes at once, each lane in log order, and flushes past all of them', async () => {
    const log: string[] = [];
    const flushed: bigint[] = [];
    await followInBatches(
      subscriptionOf(events),
      async (event) => {
        log.push(`start ${event.position}`);
        await tick();
        log.push(`end ${event.position}`);
      },
      async (upTo) => void flushed.push(upTo),
      { laneOf: (event) => event.stream, width: 10 },
    );
    expect(log.slice(0, 3)).toEqual(['start 1', 'start 2', 'start 4']);
    expect(log.indexOf('start 3')).toBeGreaterThan(log.indexOf('end 1'));
    expect(log.indexOf('start 5')).toBeGreaterThan(log.indexOf('end 2'));
    expect(flushed).toEqual([5n]);
  });

  it('never flushes past a window that did not finish', async () => {
    const flushed: bigint[] = [];
    let flushedOnce!: () => void;
    const firstFlush = new Promise<void>((resolve) => (flushedOnce = resolve));
    const pausing: EventSubscription = {
      async *[Symbol.asyncIterator]() {
        yield eventAt(1, 'a');
        // Nothing more is ready until the follower has flushed what it handled.
        await firstFlush;
        yield* [eventAt(2, 'a'), eventAt(3, 'b'), eventAt(4, 'c')];
      },
      close: async () => undefined,
    };
    const following = followInBatches(
      pausing,
      async (event) => {
        if (event.position === 3n) throw new Error('handler failed');
      },
      async (upTo) => {
        flushed.push(upTo);
        flushedOnce();
      },
      { laneOf: (event) => event.stream, width: 10 },
    );
    await expect(following).rejects.toThrow('handler failed');
    expect(flushed).toEqual([1n]);
  });
});

describe('followInBatches pacing', () => {
  /** Event 1, event 2 100 ms later, then nothing for 600 ms before event 3 (gaps wide enough for a loaded machine). */
  const trickle = (): EventSubscription => ({
    async *[Symbol.asyncIterator]() {
      yield eventAt(1, 'a');
      await sleep(100);
      yield eventAt(2, 'a');
      await sleep(600);
      yield eventAt(3, 'a');
    },
    close: async () => undefined,
  });
  const flushesOf = async (pacing = PROMPT) => {
    const flushed: bigint[] = [];
    await followInBatches(trickle(), async () => undefined, async (upTo) => void flushed.push(upTo), ONE_LANE, pacing);
    return flushed;
  };

  it('flushes as soon as nothing is ready, by default', async () => {
    expect(await flushesOf()).toEqual([1n, 2n, 3n]);
  });

  it('waits up to idleMs for more before it flushes', async () => {
    expect(await flushesOf({ idleMs: 300, maxMs: 1_000, maxEvents: 500 })).toEqual([2n, 3n]);
  });

  it('flushes a batch that reached maxEvents at once, and waits no longer than maxMs allows', async () => {
    expect(await flushesOf({ idleMs: 1_000, maxMs: 1_000, maxEvents: 2 })).toEqual([2n, 3n]);
    expect(await flushesOf({ idleMs: 1_000, maxMs: 10, maxEvents: 500 })).toEqual([1n, 2n, 3n]);
  });
});
