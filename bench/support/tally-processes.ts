/**
 * Several Tally API processes on one data folder (the embedded profile's SQLite files), each a
 * child process listening on a port of its own: the first as `npm start` runs it (the API, and the
 * worker in its threads), with one tenant whose rate limits are lifted; the others the API alone
 * (`worker: false`, as production's API processes run), whose appends the first's worker finds by
 * its SQLite subscriptions' poll. Only the first runs a worker: the embedded profile holds leases in
 * the process's memory, so two workers on one folder would both run every projection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { readConfig } from '@tally/cells';
import { createApp } from '../../apps/api/src/create-app';
import { BenchChild, serveRequests, type ChildRequest } from './bench-child';
import { cpuMsOf } from './cpu-time';
import { startTally } from './tally-server';
import type { SqliteTimes } from './thread-heap-probe';

type Role = 'first' | 'api-only';

interface Ready {
  url: string;
  /** The tenant's sandbox key (the first process creates the tenant). */
  sandboxKey: string | null;
}

interface Request extends ChildRequest {
  op: 'settle' | 'sqlite' | 'stop';
}

const CHILD_FLAG = '--tally-process';

/** The API processes of one data folder, started by the bench and stopped by close(). */
export class TallyProcesses {
  private constructor(
    private readonly children: readonly BenchChild<Ready, Request>[],
    private readonly dataDir: string,
  ) {}

  /** Starts `count` processes on a fresh data folder, the first before the others (it creates the master key and the tenant). */
  static async start(count: number): Promise<TallyProcesses> {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-processes-'));
    const children = [await BenchChild.start<Ready, Request>(__filename, [CHILD_FLAG, dataDir, 'first'], { label: 'first Tally' })];
    for (let i = 1; i < count; i++) children.push(await BenchChild.start<Ready, Request>(__filename, [CHILD_FLAG, dataDir, 'api-only'], { label: `API process ${i + 1}` }));
    return new TallyProcesses(children, dataDir);
  }

  /** Each process's base URL, the first's first. */
  get urls(): string[] {
    return this.children.map((child) => child.ready.url);
  }

  get sandboxKey(): string {
    return this.children[0].ready.sandboxKey!;
  }

  /** Waits until the worker (in the first process) has handled every write of every process so far. */
  settle(): Promise<void> {
    return this.children[0].ask('settle');
  }

  /** Each process's request thread's SQLite transactions (the API's appends) since the last call, the first's first. */
  sqliteTimes(): Promise<SqliteTimes[]> {
    return Promise.all(this.children.map((child) => child.ask<SqliteTimes>('sqlite')));
  }

  /** CPU time so far of each process (all its threads), in ms, the first's first. */
  cpuMs(): number[] {
    return this.children.map((child) => cpuMsOf(`/proc/${child.pid}/stat`));
  }

  async close(): Promise<void> {
    try {
      for (const child of [...this.children].reverse()) await child.stop();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}

/** A child's side: serves the API on `dataDir` in its role until asked to stop. */
async function serveTallyProcess(dataDir: string, role: Role): Promise<void> {
  // The probe is preloaded into the child (BenchChild), and timing its transactions is all it changes there.
  const { sqliteTimes } = await import('./thread-heap-probe');
  const answer = (settle: () => Promise<void>) => async (request: Request) => (request.op === 'sqlite' ? sqliteTimes() : settle());
  if (role === 'first') {
    const tally = await startTally('thread', {}, dataDir);
    serveRequests<Request>({ url: tally.url, sandboxKey: tally.sandboxKey }, answer(() => tally.settle()), () => tally.close());
    return;
  }
  const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded' });
  const app = await createApp({ config, worker: false }, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const settle = () => Promise.reject(new Error('an API-only process runs no worker; settle the first'));
  serveRequests<Request>({ url: `http://127.0.0.1:${port}`, sandboxKey: null }, answer(settle), () => app.close());
}

if (require.main === module) {
  const at = process.argv.indexOf(CHILD_FLAG);
  serveTallyProcess(process.argv[at + 1], process.argv[at + 2] as Role).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
