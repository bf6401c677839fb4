import type { RateLimitStore } from './rate-limit-store';
import { chargeFor, decide, horizonOf, slotOf, type RateLimitDecision, type LimitWindow } from './sliding-window';

interface Bucket {
  /** Units per slot, for the slots inside the longest window only. */
  units: Map<number, number>;
  /** The first slot at which every unit has left every window. */
  idleFrom: number;
}

/** How often idle buckets are dropped, in slots (10 s). */
const SWEEP_EVERY_SLOTS = 100;

/**
 * Buckets in this process (the embedded profile, or one API instance): exact counters per 100 ms
 * slot, at most one entry per slot of the longest window in each bucket, and buckets that fell
 * idle are dropped, so memory follows the tenants active in the last ten seconds.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private nextSweep = Number.NEGATIVE_INFINITY;

  async take(key: string, cost: number, windows: readonly LimitWindow[], now: number): Promise<RateLimitDecision> {
    const slot = slotOf(now);
    const horizon = horizonOf(windows);
    this.sweep(slot);
    const bucket = this.buckets.get(key) ?? { units: new Map<number, number>(), idleFrom: slot };
    const recent = new Array<number>(horizon).fill(0);
    for (const [taken, units] of bucket.units) {
      const age = slot - taken;
      // A slot ahead of now (the clock was set back) counts as the current one.
      if (age < horizon) recent[Math.max(0, age)] += units;
      else bucket.units.delete(taken);
    }
    const decision = decide(recent, cost, windows, now);
    if (decision.allowed) {
      bucket.units.set(slot, (bucket.units.get(slot) ?? 0) + chargeFor(cost, windows));
      bucket.idleFrom = Math.max(bucket.idleFrom, slot + horizon);
      this.buckets.set(key, bucket);
    }
    return decision;
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  /** Buckets held, for tests of eviction. */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(slot: number): void {
    if (slot < this.nextSweep) return;
    this.nextSweep = slot + SWEEP_EVERY_SLOTS;
    for (const [key, bucket] of this.buckets) if (bucket.idleFrom <= slot) this.buckets.delete(key);
  }
}
