import type { EventSubscription, RecordedEvent } from '@tally/eventstore';
import { followInBatches } from './follow-in-batches';

const eventAt = (position: number, stream: string) => ({ id: `e${position}`, type: 'Happened', data: {}, metadata: {}, stream, revision: 0, position: BigInt(position) }) as unknown as RecordedEvent;

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
