import type { EventSubscription, RecordedEvent } from '@tally/eventstore';
import { inLanes } from './lanes';

const NOT_READY = Symbol('not ready');

/**
 * When handled events are flushed (committed). `idleMs`: how long to wait for more once nothing
 * is ready; `maxMs` and `maxEvents`: the most a batch holds under a steady stream of appends,
 * which never leaves the follower waiting.
 */
export interface Pacing {
  idleMs: number;
  maxMs: number;
  maxEvents: number;
}

/** A live event is committed within milliseconds; catch-up commits every 500 events or 50 ms. */
export const PROMPT: Pacing = { idleMs: 0, maxMs: 50, maxEvents: 500 };

/**
 * Which events may be handled at the same time: those of different lanes, up to `width` events
 * that the subscription has ready. Events of one lane are handled in log order.
 */
export interface Lanes {
  laneOf(event: RecordedEvent): string | Promise<string>;
  width: number;
  /** Handles the ready events together, in lanes as above (a follower that does a page of work at once); by default each is handed to `handle`. */
  handleWindow?(window: readonly RecordedEvent[]): Promise<void>;
}

/** One event at a time. */
export const ONE_LANE: Lanes = { laneOf: () => '', width: 1 };

/**
 * Hands each event of a subscription to `handle`, in order (or, with lanes, in order within each
 * lane, the ready events of different lanes concurrently), and calls `flush(lastHandled)` when the
 * subscription has had nothing available for `pacing.idleMs` (by default at once, so a live event
 * is committed within milliseconds), or when the batch reached `pacing.maxEvents` or
 * `pacing.maxMs` (so catch-up commits in batches), then lets the event loop take a turn. A flush
 * never covers an event that was not handled.
 */
export async function followInBatches(
  subscription: EventSubscription,
  handle: (event: RecordedEvent) => Promise<void>,
  flush: (handledUpTo: bigint) => Promise<void>,
  lanes: Lanes = ONE_LANE,
  pacing: Pacing = PROMPT,
): Promise<void> {
  const iterator = subscription[Symbol.asyncIterator]();
  let handledUpTo: bigint | undefined;
  let batched = 0;
  let batchStarted = performance.now();
  const flushBatch = async () => {
    if (handledUpTo !== undefined && batched > 0) await flush(handledUpTo);
    batched = 0;
  };
  const ready = (next: Promise<IteratorResult<RecordedEvent>>) => Promise.race([next, new Promise<typeof NOT_READY>((resolve) => setImmediate(resolve, NOT_READY))]);
  const readyWithin = async (next: Promise<IteratorResult<RecordedEvent>>, ms: number) => {
    if (ms <= 0) return ready(next);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([next, new Promise<typeof NOT_READY>((resolve) => (timer = setTimeout(resolve, ms, NOT_READY)))]);
    } finally {
      clearTimeout(timer);
    }
  };
  let next = iterator.next();
  let ended = false;
  while (!ended) {
    let result = await (batched > 0 ? readyWithin(next, Math.min(pacing.idleMs, pacing.maxMs - (performance.now() - batchStarted))) : ready(next));
    if (result === NOT_READY) {
      await flushBatch();
      result = await next;
    }
    if (result.done) break;
    if (batched === 0) batchStarted = performance.now();
    const window = [result.value];
    next = iterator.next();
    while (window.length < lanes.width) {
      const more = await ready(next);
      if (more === NOT_READY) break;
      if (more.done) {
        ended = true;
        break;
      }
      window.push(more.value);
      next = iterator.next();
    }
    await (lanes.handleWindow ? lanes.handleWindow(window) : inLanes(window, lanes.laneOf, handle));
    handledUpTo = window[window.length - 1].position;
    batched += window.length;
    if (batched >= pacing.maxEvents || performance.now() - batchStarted > pacing.maxMs) {
      await flushBatch();
      // A follower far behind finds every event ready and would never leave the microtask queue;
      // the thread's timers and messages (lease renewals, settle requests) get a turn once a batch.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await flushBatch();
}
