import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, type Db } from 'mongodb';
import { SystemClock, UlidGenerator } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import { MongoLeaseStore, openEmbeddedCells, type CellRegistry, type LeaseEpoch } from '@tally/cells';
import { testMetadata } from '@tally/cells/testing/temp-cells';
import { DISPATCHED_STREAM, PROBE_STREAM } from './support/lease-probe.process';
import { withDatabase } from './support/mongo-read-store';
import { startTsChild } from './support/ts-child-process';

const MONGO_URL = process.env.MONGO_URL;
const TTL_MS = 3_000;
/** Time for a process to notice an expiry and store its epoch, and for this test to see it. */
const HANDOVER_SLACK_MS = 1_000;
const PROBES = 12;
/** Every lease of the workers' cell: the timers projection, the probe's process manager, the timer poller. */
const LEASES = ['eu/projection/timers', 'eu/process/lease_probe', 'eu/dispatcher', 'eu/timer-poller'];


interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  stderr(): string;
}

function startWorker(dataDir: string, leasesUrl: string): Promise<WorkerProcess> {
  const env = { ...process.env, TALLY_LEASES: 'mongo', TALLY_LEASES_MONGO_URL: leasesUrl, TALLY_LEASE_TTL_MS: String(TTL_MS) };
  return new Promise((resolve, reject) => {
    const started = startTsChild('lease-worker-child.ts', [dataDir], (line) => line === 'ready' && resolve(worker), env);
    const worker: WorkerProcess = { child: started.child, pid: started.child.pid!, stderr: started.stderr };
    started.child.on('exit', (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before it was ready: ${started.stderr()}`)));
  });
}

async function waitFor(what: string, condition: () => Promise<boolean>, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Workers name themselves `<host>:<pid>:<random>` as lease holders. */
const pidOf = (holder: string | null | undefined) => Number(holder?.split(':')[1]);

/**
 * The proof that leases hold with several workers: two worker processes on one embedded cell
 * (SQLite files), their leases in MongoDB (FerretDB in CI). Runs where MONGO_URL is set.
 */
(MONGO_URL ? describe : describe.skip)('two workers on one cell with leases in MongoDB (MONGO_URL)', () => {
  const clock = new SystemClock();
  const ids = new UlidGenerator(clock);
  const database = `tally_leases_e2e_${randomUUID().replace(/-/g, '')}`;
  let dataDir: string;
  let cells: CellRegistry;
  let client: MongoClient;
  let db: Db;
  let leases: MongoLeaseStore;
  let workers: WorkerProcess[] = [];
  let firstProbes: string[] = [];

  const events = () => cells.cell('eu').events;
  const stream = (name: string) => events().readStream(name);
  const latest = async () => new Map(await Promise.all(LEASES.map(async (name) => [name, await leases.latest(name)] as [string, LeaseEpoch | undefined])));

  const requestProbes = async (count: number, dueInMs: number): Promise<string[]> => {
    const probes = Array.from({ length: count }, () => ids.ulid());
    for (const [i, probe] of probes.entries()) {
      const data = { due_at: new Date(clock.now().getTime() + dueInMs + i * 20).toISOString() };
      await events().append(`${PROBE_STREAM}${probe}`, [{ id: ids.ulid(), type: 'ProbeRequested', data, metadata: testMetadata(clock.now().toISOString()) }], { expectedRevision: 'no_stream' });
    }
    return probes;
  };

  /** Per probe: how often its command was dispatched (and by which process), how often its timer fired. */
  const outcomes = async (probes: readonly string[]) =>
    Promise.all(
      probes.map(async (probe) => {
        const dispatched = await stream(`${DISPATCHED_STREAM}${probe}`);
        const process = await stream(`pm.lease_probe-${probe}`);
        const count = (type: string, where: (event: RecordedEvent) => boolean = () => true) => process.filter((event: RecordedEvent) => event.type === type && where(event)).length;
        return {
          dispatched: dispatched.length,
          by: dispatched.map((event) => (event.data as { pid: number }).pid),
          timerFired: count('ProcessInputReceived', (event) => (event.data as { input_type: string }).input_type === 'TimerFired'),
          rang: count('ProbeRang'),
        };
      }),
    );

  const allDone = async (probes: readonly string[]) => (await outcomes(probes)).every((o) => o.dispatched > 0 && o.rang > 0);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-leases-'));
    cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: [], upcasters: [] });
    client = await MongoClient.connect(MONGO_URL!);
    db = client.db(database);
    leases = new MongoLeaseStore(db);
    const leasesUrl = withDatabase(MONGO_URL!, database);
    workers = await Promise.all([startWorker(dataDir, leasesUrl), startWorker(dataDir, leasesUrl)]);
  }, 60_000);

  afterAll(async () => {
    for (const { child } of workers) child.kill('SIGKILL');
    await cells?.close();
    await db?.dropDatabase();
    await client?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('dispatches every command once and fires every timer once, from the holders of the leases (commands by the dispatcher’s)', async () => {
    const held = await latest();
    for (const name of LEASES) expect(workers.map((w) => w.pid)).toContain(pidOf(held.get(name)?.holder));

    firstProbes = await requestProbes(PROBES, 1_000);
    await waitFor('every probe dispatched and rung', () => allDone(firstProbes), 30_000);
    // Long enough for a second dispatch or firing, from either worker, to show.
    await sleep(1_500);

    const dispatcherHolder = pidOf((await latest()).get('eu/dispatcher')?.holder);
    expect(await outcomes(firstProbes)).toEqual(firstProbes.map(() => ({ dispatched: 1, by: [dispatcherHolder], timerFired: 1, rang: 1 })));
  }, 60_000);

  it('hands the leases of a killed worker to the other once they expire, within their TTL, and goes on with every command once', async () => {
    const dispatcherHolder = pidOf((await latest()).get('eu/dispatcher')?.holder);
    const victim = workers.find((w) => w.pid === dispatcherHolder)!;
    const survivor = workers.find((w) => w !== victim)!;
    const killedAt = clock.now().getTime();
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    // The victim's last epochs, which nothing renews any more.
    const abandoned = [...(await latest())].filter(([, epoch]) => pidOf(epoch?.holder) === victim.pid) as [string, LeaseEpoch][];
    expect(abandoned.length).toBeGreaterThan(0);

    const probes = await requestProbes(5, 500);
    const takenOver = new Map<string, { seenAt: number; epoch: LeaseEpoch }>();
    await waitFor(
      'the survivor holding every lease',
      async () => {
        for (const [name, epoch] of await latest()) if (epoch && pidOf(epoch.holder) === survivor.pid && !takenOver.has(name)) takenOver.set(name, { seenAt: clock.now().getTime(), epoch });
        return takenOver.size === LEASES.length;
      },
      TTL_MS + 5_000,
    );
    for (const [name, last] of abandoned) {
      const { seenAt, epoch } = takenOver.get(name)!;
      expect(seenAt - killedAt).toBeLessThanOrEqual(TTL_MS + HANDOVER_SLACK_MS);
      // Taken (an epoch's expiry minus the TTL is when it was stored) no earlier than the victim's lease ran out.
      expect(epoch.expiresAt.getTime() - TTL_MS).toBeGreaterThanOrEqual(last.expiresAt.getTime());
    }

    await waitFor('the new probes dispatched and rung', () => allDone(probes), 30_000);
    await sleep(1_500);
    expect(await outcomes(probes)).toEqual(probes.map(() => ({ dispatched: 1, by: [survivor.pid], timerFired: 1, rang: 1 })));
    // Nothing of before the kill was dispatched or fired again.
    expect((await outcomes(firstProbes)).map(({ dispatched, timerFired, rang }) => [dispatched, timerFired, rang])).toEqual(firstProbes.map(() => [1, 1, 1]));
    expect(survivor.stderr()).toBe('');
  }, 60_000);
});
