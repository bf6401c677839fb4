import type { EventSubscription, RecordedEvent } from '@tally/eventstore';

const MAX_BATCH_EVENTS = 500;
/** Under a steady stream of appends the subscription never waits; flush at least this often anyway. */
const MAX_BATCH_MS = 50;
const NOT_READY = Symbol('not ready');

/**
 * Hands each event of a subscription to `handle`, one at a time and in order, and calls
 * `flush(lastHandled)` when the subscription has nothing immediately available (so a live event is
 * committed within milliseconds), or every 500 events or 50 ms (so catch-up commits in batches).
 * A flush never covers an event that was not handled.
 */
export async function followInBatches(
  subscription: EventSubscription,
  handle: (event: RecordedEvent) => Promise<void>,
  flush: (handledUpTo: bigint) => Promise<void>,
): Promise<void> {
  const iterator = subscription[Symbol.asyncIterator]();
  let handledUpTo: bigint | undefined;
  let batched = 0;
  let batchStarted = performance.now();
  const flushBatch = async () => {
    if (handledUpTo !== undefined && batched > 0) await flush(handledUpTo);
    batched = 0;
    batchStarted = performance.now();
  };
  let next = iterator.next();
  for (;;) {
    let result = await Promise.race([next, new Promise<typeof NOT_READY>((resolve) => setImmediate(resolve, NOT_READY))]);
    if (result === NOT_READY) {
      await flushBatch();
      result = await next;
    }
    if (result.done) break;
    await handle(result.value);
    handledUpTo = result.value.position;
    if (++batched >= MAX_BATCH_EVENTS || performance.now() - batchStarted > MAX_BATCH_MS) await flushBatch();
    next = iterator.next();
  }
  await flushBatch();
}
