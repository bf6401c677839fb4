import { setTimeout as sleep } from 'node:timers/promises';
import { SystemClock } from '@tally/kernel';
import { LeaseLostError, Leases, MemoryLeaseStore, type LeaseEpoch, type LeaseFence, type LeaseStore } from '@tally/cells';
import { LeasedRunner, type Runner } from './leased-runner';

const TTL = 400;
const NAME = 'eu/projection/customers';
const clock = new SystemClock();

/** A store this process can lose contact with, as a holder cut off from MongoDB does. */
class Reachable implements LeaseStore {
  down = false;
  constructor(private readonly store: LeaseStore) {}
  latest(name: string) {
    return this.down ? Promise.reject(new Error('store unreachable')) : this.store.latest(name);
  }
  insert(epoch: LeaseEpoch) {
    return this.down ? Promise.reject(new Error('store unreachable')) : this.store.insert(epoch);
  }
  forget(name: string, epoch: number) {
    return this.store.forget(name, epoch);
  }
}

/** What happened, in order, with the time since the test began. */
class Journal {
  private readonly started = performance.now();
  readonly entries: { what: string; at: number }[] = [];
  add(what: string): void {
    this.entries.push({ what, at: performance.now() - this.started });
  }
  at(what: string): number {
    const entry = this.entries.find((e) => e.what === what);
    if (!entry) throw new Error(`${what} never happened: ${JSON.stringify(this.entries)}`);
    return entry.at;
  }
  get whats(): string[] {
    return this.entries.map((e) => e.what);
  }
}

class FakeRunner implements Runner {
  constructor(
    private readonly holder: string,
    private readonly journal: Journal,
    readonly fence: LeaseFence,
    private readonly failsToStart = false,
  ) {}
  start(): void {
    if (this.failsToStart) throw new Error('boom');
    this.journal.add(`start ${this.holder}`);
  }
  /** Records whether its last commit, at stop, would still go through. */
  async stop(): Promise<void> {
    let held = true;
    try {
      this.fence.assertHeld();
    } catch {
      held = false;
    }
    this.journal.add(`stop ${this.holder}${held ? '' : ' (fenced)'}`);
  }
}

async function until(condition: () => boolean, ms = 3_000): Promise<void> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}

describe('LeasedRunner', () => {
  const errors: string[] = [];
  const log = { error: (message: string) => errors.push(message) };
  let store: MemoryLeaseStore;
  let journal: Journal;
  let running: LeasedRunner<FakeRunner>[];

  const leased = (holder: string, leaseStore: LeaseStore = store, make = (fence: LeaseFence) => new FakeRunner(holder, journal, fence)) => {
    const runner = new LeasedRunner(new Leases(leaseStore), NAME, make, { holder, ttlMs: TTL, clock }, log);
    running.push(runner);
    return runner;
  };

  beforeEach(() => {
    store = new MemoryLeaseStore();
    journal = new Journal();
    running = [];
    errors.length = 0;
  });

  afterEach(async () => {
    for (const runner of running) await runner.stop();
  });

  it('runs one runner among several contenders and keeps it while it renews', async () => {
    const a = leased('a');
    const b = leased('b');
    await a.start();
    await b.start();
    expect(a.current).toBeDefined();
    expect(b.current).toBeUndefined();
    await sleep(3 * TTL);
    expect(journal.whats).toEqual(['start a']);
    expect((await store.latest(NAME))?.holder).toBe('a');
    expect(() => a.current!.fence.assertHeld()).not.toThrow();
  });

  it('stops the holder cut off from the store before its lease expires, and hands over within the TTL', async () => {
    const reachable = new Reachable(store);
    const a = leased('a', reachable);
    await a.start();
    const b = leased('b');
    await b.start();
    const fence = a.current!.fence;
    reachable.down = true;
    journal.add('cut off');
    const lastExpiry = (await store.latest(NAME))!.expiresAt.getTime();
    await until(() => b.current !== undefined);
    expect(journal.whats).toEqual(['start a', 'cut off', 'stop a (fenced)', 'start b']);
    expect(journal.at('start b') - journal.at('cut off')).toBeLessThan(TTL + 150);
    // a stopped before its lease ran out; b started only after.
    expect(journal.at('stop a (fenced)')).toBeLessThan(journal.at('start b'));
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(lastExpiry);
    expect(() => fence.assertHeld()).toThrow(LeaseLostError);
    expect(errors.some((message) => message.includes('lost (no renewal succeeded before its deadline)'))).toBe(true);
  });

  it('stops its runner at the next renewal when another holder took the lease', async () => {
    const a = leased('a');
    await a.start();
    const fence = a.current!.fence;
    const latest = (await store.latest(NAME))!;
    await store.insert({ name: NAME, epoch: latest.epoch + 1, holder: 'intruder', expiresAt: new Date(clock.now().getTime() + 10 * TTL) });
    await until(() => a.current === undefined);
    expect(journal.whats).toEqual(['start a', 'stop a (fenced)']);
    expect(() => fence.assertHeld()).toThrow(LeaseLostError);
  });

  it('keeps a fence closed once its lease was lost, even after the lease is taken again', async () => {
    const a = leased('a');
    await a.start();
    const first = a.current!.fence;
    const latest = (await store.latest(NAME))!;
    await store.insert({ name: NAME, epoch: latest.epoch + 1, holder: null, expiresAt: clock.now() });
    // The lease is free again, so a takes it anew with a fresh runner.
    await until(() => journal.whats.length === 3);
    expect(journal.whats).toEqual(['start a', 'stop a (fenced)', 'start a']);
    expect(() => first.assertHeld()).toThrow(LeaseLostError);
    expect(() => a.current!.fence.assertHeld()).not.toThrow();
  });

  it('releases the lease when stopped, so another takes over without waiting for expiry', async () => {
    const a = leased('a');
    await a.start();
    const b = leased('b');
    await b.start();
    await a.stop();
    journal.add('a stopped');
    await until(() => b.current !== undefined);
    // a's runner made its last commit under the lease; b came in right after the release.
    expect(journal.whats).toEqual(['start a', 'stop a', 'a stopped', 'start b']);
    expect(journal.at('start b') - journal.at('a stopped')).toBeLessThan(TTL / 3 + 100);
  });

  it('lets the lease go when its runner fails to start, and tries again later', async () => {
    let failures = 1;
    const a = leased('a', store, (fence) => new FakeRunner('a', journal, fence, failures-- > 0));
    const b = leased('b');
    await a.start();
    expect(a.current).toBeUndefined();
    await b.start();
    expect(b.current).toBeDefined();
    expect(errors).toEqual([`lease ${NAME}: its runner failed to start; letting the lease go`]);
    await b.stop();
    await until(() => a.current !== undefined);
    expect(journal.whats).toEqual(['stop a (fenced)', 'start b', 'stop b', 'start a']);
  });
});
