import type { LeaseEpoch, LeaseStore } from './lease-store.port';

/** A lease as its holder knows it; `token` (the epoch it stored last) grows with every renewal. */
export interface Lease {
  name: string;
  holder: string;
  token: number;
  expiresAt: Date;
}

/** Either the lease, or until when another holder has it (a released lease reads as free now). */
export type LeaseAttempt = { lease: Lease } | { busyUntil: Date };

/**
 * The rules of a lease over its epochs. Taking, renewing and releasing each insert the epoch after
 * the latest one seen, so a renewal that comes too late and a takeover race for the same key, and
 * the store lets exactly one of them in.
 */
export class Leases {
  constructor(private readonly store: LeaseStore) {}

  /** Takes the lease when nobody holds it, its holder let it expire or released it, or `holder` has it already. */
  async acquire(name: string, holder: string, now: Date, ttlMs: number): Promise<LeaseAttempt> {
    const latest = await this.store.latest(name);
    if (latest && latest.holder !== null && latest.holder !== holder && latest.expiresAt > now) return { busyUntil: latest.expiresAt };
    return this.take(name, latest, holder, now, ttlMs);
  }

  /**
   * Extends the lease by `ttlMs` from `now` under a new token; undefined when it is no longer this
   * holder's (another took it, or it was released), and the holder must stop.
   */
  async renew(lease: Lease, now: Date, ttlMs: number): Promise<Lease | undefined> {
    const latest = await this.store.latest(lease.name);
    if (!heldBy(latest, lease)) return undefined;
    const attempt = await this.take(lease.name, latest, lease.holder, now, ttlMs);
    return 'lease' in attempt ? attempt.lease : undefined;
  }

  /** Frees the lease for the next taker at once, if it is still this holder's. */
  async release(lease: Lease, now: Date): Promise<void> {
    const latest = await this.store.latest(lease.name);
    if (heldBy(latest, lease)) await this.store.insert({ name: lease.name, epoch: latest.epoch + 1, holder: null, expiresAt: now });
  }

  private async take(name: string, latest: LeaseEpoch | undefined, holder: string, now: Date, ttlMs: number): Promise<LeaseAttempt> {
    const next: LeaseEpoch = { name, epoch: (latest?.epoch ?? 0) + 1, holder, expiresAt: new Date(now.getTime() + ttlMs) };
    // Another change from the same epoch won; it is as fresh as ours would have been.
    if (!(await this.store.insert(next))) return { busyUntil: next.expiresAt };
    // Old epochs left behind by a failed clean-up are harmless, and the next change deletes them.
    await this.store.forget(name, next.epoch).catch(() => undefined);
    return { lease: { name, holder, token: next.epoch, expiresAt: next.expiresAt } };
  }
}

/**
 * Whether the lease is still this holder's: the latest epoch is its own and not older than the one
 * it knows (a later one of its own is a renewal whose answer was lost on the way).
 */
function heldBy(latest: LeaseEpoch | undefined, lease: Lease): latest is LeaseEpoch {
  return latest !== undefined && latest.holder === lease.holder && latest.epoch >= lease.token;
}
