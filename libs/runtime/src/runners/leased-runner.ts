import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SystemClock, type Clock } from '@tally/kernel';
import { DEFAULT_LEASE_TTL_MS, LeaseLostError, type Lease, type LeaseFence, type Leases } from '@tally/cells';
import type { RunnerLog } from './supervise';

/** Anything that works in the background until stopped: projection and process runners, pollers, dispatchers. */
export interface Runner {
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

export interface LeaseTerms {
  /** This process (host, pid and a random part); a holder renews only its own lease. */
  holder: string;
  ttlMs: number;
  /** The clock leases expire by: the system clock, also where the domain runs on a manual one. */
  clock: Clock;
}

/** A holder name unique to this process and call, on the system clock. */
export function leaseTermsOfThisProcess(ttlMs = DEFAULT_LEASE_TTL_MS): LeaseTerms {
  return { holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, ttlMs, clock: new SystemClock() };
}

/** Renew this far into the TTL, and stop the runner this far before expiry when renewing failed. */
const RENEW_AFTER = 1 / 3;
const DEADLINE_BEFORE_EXPIRY = 1 / 5;
/** After a failed renewal (the store did not answer), try again this soon. */
const RENEW_RETRY = 1 / 10;

/**
 * Runs a runner only while this process holds the lease `name`. It takes the lease when it is free
 * or expired and then starts a fresh runner from `make`; renews the lease every third of its TTL;
 * and stops the runner when another holder took the lease, or when no renewal succeeded by the
 * deadline, a fifth of the TTL before the lease expires, so the runner has stopped by the time
 * another process may take over. The fence handed to `make` refuses writes past that deadline. A
 * process without the lease tries again when the holder's lease expires (and at least every third
 * of the TTL, to notice a release).
 */
export class LeasedRunner<R extends Runner> {
  private lease: Lease | undefined;
  private runner: R | undefined;
  /** Counts the times this process took the lease, so a fence given out earlier stays closed. */
  private tenure = 0;
  private nextAttemptAt = 0;
  private loop: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly leases: Leases,
    readonly name: string,
    private readonly make: (fence: LeaseFence) => R,
    private readonly terms: LeaseTerms,
    private readonly log: RunnerLog,
  ) {}

  /** The running runner while this process holds the lease. */
  get current(): R | undefined {
    return this.runner;
  }

  /** Tries the lease once (a free lease has its runner started when this resolves), then keeps at it in the background. */
  async start(): Promise<void> {
    await this.acquire();
    this.loop = this.keep();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    // The runner stops while the lease is held, so that its last commit goes through.
    await this.stopRunner();
    const lease = this.lease;
    this.lease = undefined;
    if (lease) await this.leases.release(lease, this.now()).catch((error: unknown) => this.log.error(`lease ${this.name}: release failed`, error));
  }

  private async keep(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      await sleep(Math.max(0, this.nextAttemptAt - this.now().getTime()), undefined, { signal: this.stopping.signal }).catch(() => undefined);
      if (this.stopping.signal.aborted) return;
      await (this.lease ? this.renew(this.lease) : this.acquire());
    }
  }

  private async acquire(): Promise<void> {
    const { holder, ttlMs } = this.terms;
    let attempt;
    try {
      attempt = await this.leases.acquire(this.name, holder, this.now(), ttlMs);
    } catch (error) {
      this.log.error(`lease ${this.name}: could not be acquired`, error);
      return this.tryAgainIn(ttlMs * RENEW_AFTER);
    }
    if (!('lease' in attempt)) {
      // Just after the holder's lease expires, and meanwhile often enough to notice a release.
      return this.tryAgainIn(Math.min(attempt.busyUntil.getTime() - this.now().getTime() + 1, ttlMs * RENEW_AFTER));
    }
    this.hold(attempt.lease);
    const tenure = ++this.tenure;
    let runner: R | undefined;
    try {
      runner = this.make({ assertHeld: () => this.assertHeld(tenure) });
      await runner.start();
      this.runner = runner;
    } catch (error) {
      this.log.error(`lease ${this.name}: its runner failed to start; letting the lease go`, error);
      this.lease = undefined;
      await runner?.stop().catch(() => undefined);
      await this.leases.release(attempt.lease, this.now()).catch(() => undefined);
      this.tryAgainIn(ttlMs * RENEW_AFTER);
    }
  }

  private async renew(lease: Lease): Promise<void> {
    const deadline = this.deadline(lease);
    const outcome = await within(deadline - this.now().getTime(), this.leases.renew(lease, this.now(), this.terms.ttlMs));
    if (outcome && 'value' in outcome) return outcome.value ? this.hold(outcome.value) : this.lose(lease, 'another holder took it');
    if (!outcome || this.now().getTime() >= deadline) return this.lose(lease, 'no renewal succeeded before its deadline');
    this.log.error(`lease ${this.name}: renewal failed; trying again`, outcome.error);
    this.tryAgainIn(Math.min(this.terms.ttlMs * RENEW_RETRY, deadline - this.now().getTime()));
  }

  private hold(lease: Lease): void {
    this.lease = lease;
    this.tryAgainIn(this.terms.ttlMs * RENEW_AFTER);
  }

  private async lose(lease: Lease, reason: string): Promise<void> {
    // First, so that the runner's next fenced write is refused while it stops.
    this.lease = undefined;
    this.log.error(`lease ${this.name} lost (${reason}); stopping its runner`, new LeaseLostError(lease.name));
    await this.stopRunner();
    this.tryAgainIn(0);
  }

  private async stopRunner(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    await runner?.stop().catch((error: unknown) => this.log.error(`lease ${this.name}: its runner failed to stop`, error));
  }

  private assertHeld(tenure: number): void {
    if (tenure !== this.tenure || !this.lease || this.now().getTime() >= this.deadline(this.lease)) throw new LeaseLostError(this.name);
  }

  private deadline(lease: Lease): number {
    return lease.expiresAt.getTime() - this.terms.ttlMs * DEADLINE_BEFORE_EXPIRY;
  }

  private tryAgainIn(ms: number): void {
    this.nextAttemptAt = this.now().getTime() + Math.max(0, ms);
  }

  private now(): Date {
    return this.terms.clock.now();
  }
}

/** The work's outcome, or undefined when `ms` pass first (the work is left to finish unobserved). */
async function within<T>(ms: number, work: Promise<T>): Promise<{ value: T } | { error: unknown } | undefined> {
  const outcome = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const timeout = new AbortController();
  try {
    return await Promise.race([outcome, sleep(Math.max(0, ms), undefined, { signal: timeout.signal })]);
  } finally {
    timeout.abort();
  }
}
