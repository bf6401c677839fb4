/**
 * The sliding-window limiter, as pure functions of the units a bucket took recently and the time.
 * Units are counted per 100 ms slot, and a window is a whole number of slots that slides one slot
 * at a time: a unit taken in slot s counts until slot s + window length begins.
 */
export const SLOT_MS = 100;

export interface LimitWindow {
  /** Length in slots. */
  readonly slots: number;
  /** Units the window admits. */
  readonly budget: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** What the bucket holds when full: the smallest window budget. */
  readonly limit: number;
  /** Units a request could take right now (after this one, when it was admitted). */
  readonly remaining: number;
  /** When the bucket is full again if nothing more is taken (epoch milliseconds). */
  readonly resetAt: number;
  /** For a refused request, how long until it would be admitted (milliseconds); 0 when admitted. */
  readonly retryAfter: number;
}

/** Units taken per slot, newest first: `recent[0]` is the slot `now` falls in, `recent[k]` the slot k before it. */
export type RecentUnits = ArrayLike<number>;

export const slotOf = (epochMs: number): number => Math.floor(epochMs / SLOT_MS);

/** How many slots back a bucket must remember for these windows. */
export const horizonOf = (windows: readonly LimitWindow[]): number => Math.max(...windows.map((w) => w.slots));

const capacityOf = (windows: readonly LimitWindow[]): number => Math.min(...windows.map((w) => w.budget));

/**
 * What a request costs the bucket: its cost, but never more than a full bucket holds, so that a
 * request dearer than the smallest budget still passes once the bucket is full instead of never.
 */
export const chargeFor = (cost: number, windows: readonly LimitWindow[]): number => Math.min(cost, capacityOf(windows));

/** Admits `cost` units when every window has room for them; `recent` does not include this request. */
export function decide(recent: RecentUnits, cost: number, windows: readonly LimitWindow[], now: number): RateLimitDecision {
  const limit = capacityOf(windows);
  const charge = chargeFor(cost, windows);
  const before = prefixSums(recent, horizonOf(windows));
  const wait = slotsUntilRoom(before, 0, charge, windows);
  const allowed = wait === 0;
  const taken = allowed ? charge : 0;
  const remaining = Math.max(0, Math.min(...windows.map((w) => w.budget - used(before, taken, w, 0))));
  const slotStart = (offset: number) => (offset === 0 ? now : (slotOf(now) + offset) * SLOT_MS);
  return {
    allowed,
    limit,
    remaining,
    resetAt: slotStart(slotsUntilRoom(before, taken, limit, windows)),
    retryAfter: slotStart(wait) - now,
  };
}

/** `sums[n]` = units of the n newest slots. */
function prefixSums(recent: RecentUnits, horizon: number): number[] {
  const sums = [0];
  for (let k = 0; k < horizon; k++) sums.push(sums[k] + (k < recent.length ? recent[k] : 0));
  return sums;
}

/** Units window `w` holds `offset` slots from now, when nothing more is taken; `extra` sits in the current slot. */
function used(sums: readonly number[], extra: number, w: LimitWindow, offset: number): number {
  const kept = Math.max(0, w.slots - offset);
  return kept === 0 ? 0 : sums[kept] + extra;
}

/** The first slot offset (0 = now) at which every window has room for `need` more units. */
function slotsUntilRoom(sums: readonly number[], extra: number, need: number, windows: readonly LimitWindow[]): number {
  const horizon = sums.length - 1;
  for (let offset = 0; offset < horizon; offset++) {
    if (windows.every((w) => used(sums, extra, w, offset) + need <= w.budget)) return offset;
  }
  return horizon;
}
