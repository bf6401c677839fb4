/**
 * Handles `items` in lanes: the items of one lane one after another, in the order given; the
 * lanes concurrently. Resolves once every lane has finished (a failure does not stop the other
 * lanes, so nothing is still running when the caller hears of it), and then rejects with the
 * first failure, if any.
 */
export async function inLanes<T>(items: readonly T[], laneOf: (item: T) => string | Promise<string>, handle: (item: T) => Promise<void>): Promise<void> {
  if (items.length === 1) return handle(items[0]);
  const lanes = new Map<string, T[]>();
  for (const item of items) {
    const lane = await laneOf(item);
    const queued = lanes.get(lane);
    if (queued) queued.push(item);
    else lanes.set(lane, [item]);
  }
  const outcomes = await Promise.allSettled(
    [...lanes.values()].map(async (lane) => {
      for (const item of lane) await handle(item);
    }),
  );
  throwFirstFailure(outcomes);
}

/** Work that ran to its end everywhere fails with its first failure, if any. */
export function throwFirstFailure(outcomes: readonly PromiseSettledResult<unknown>[]): void {
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * `items` in rounds, as lanes handled one item a lane at a time: the first item of every lane in
 * the first round, the next of each in the next, and so on; within a round, in the order given.
 */
export function roundsOf<T>(items: readonly T[], laneOf: (item: T) => string): T[][] {
  const rounds: T[][] = [];
  const taken = new Map<string, number>();
  for (const item of items) {
    const lane = laneOf(item);
    const round = taken.get(lane) ?? 0;
    taken.set(lane, round + 1);
    (rounds[round] ??= []).push(item);
  }
  return rounds;
}
