import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, UlidGenerator } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { Doc } from '@tally/readstore';
import { bindingsFor, rebuildProjections, streamName, Worker, type ProjectionBinding } from '@tally/runtime';
import { openEmbeddedCells, type CellRegistry } from '@tally/cells';
import { customerAggregate, customerResource } from '@tally/customers';
import { CONTEXTS } from '../apps/contexts';
import { startTsChild } from './support/ts-child-process';
import { scaled } from './support/time-scale';

const BATCH_SIZE = 5;
/** Each run is killed in turn and the next one restarts on what the kill left behind. */
const ROUNDS = 3;
/**
 * Acks to wait for before the kill (enough for the projection to have committed a few batches),
 * or how long after the first ack, whichever comes first.
 */
const KILL_AFTER_ACKS = 1_500;
const KILL_AFTER_MS = 3_000;
/** A random extra delay, so the kill does not always land just after an ack was written. */
const KILL_JITTER_MS = 25;
/** A child that never acknowledges anything is killed too, so it cannot outlive the test. */
const STARTUP_LIMIT_MS = scaled(30_000);

/** What the child told its "clients": the highest acknowledged revision per customer, and the batches. */
class Acks {
  readonly customers = new Map<string, number>();
  readonly batches = new Set<string>();
  readonly unreadable: string[] = [];

  add(line: string): void {
    const customer = /^ack customer (cus_[0-9A-Z]{26}) (\d+)$/.exec(line);
    const batch = /^ack batch (batch-[0-9A-Z]{26}) (\d+)$/.exec(line);
    if (customer) this.customers.set(customer[1], Math.max(Number(customer[2]), this.customers.get(customer[1]) ?? -1));
    else if (batch && Number(batch[2]) === BATCH_SIZE) this.batches.add(batch[1]);
    else this.unreadable.push(line);
  }
}

interface Run {
  acks: number;
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
}

/** Starts the writer on `dataDir` and SIGKILLs it while it is writing; only newline-terminated lines count. */
async function runUntilKilled(dataDir: string, acks: Acks): Promise<Run> {
  let count = 0;
  let killing = false;
  const kill = () => {
    if (killing) return;
    killing = true;
    setTimeout(() => writer.child.kill('SIGKILL'), Math.random() * KILL_JITTER_MS);
  };
  let timer = setTimeout(kill, STARTUP_LIMIT_MS);
  // A line cut off by the kill was never fully acknowledged, and never reaches onLine.
  const writer = startTsChild('crash-child.ts', [dataDir], (line) => {
    if (count === 0) {
      clearTimeout(timer);
      timer = setTimeout(kill, KILL_AFTER_MS);
    }
    acks.add(line);
    count += 1;
    if (count >= KILL_AFTER_ACKS) kill();
  });
  const { code, signal } = await writer.closed;
  clearTimeout(timer);
  return { acks: count, signal, code, stderr: writer.stderr() };
}

/** Whether the customers projection had events left to handle when the writer died. */
async function projectionBehind(dataDir: string): Promise<boolean> {
  const cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock: new ManualClock(), pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
  try {
    const { events, readModels } = cells.cell('eu');
    const checkpoint = await readModels.getCheckpoint(customerResource.projection.name);
    const pending = await events.readAll({ fromPosition: checkpoint, limit: 1, filter: { streamPrefixes: customerResource.projection.streamPrefixes } });
    return pending.length > 0;
  } finally {
    await cells.close();
  }
}

async function allEvents(cells: CellRegistry): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await cells.cell('eu').events.readAll({ fromPosition: events.at(-1)?.position, limit: 1_000 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

async function readModels(bindings: readonly ProjectionBinding[]): Promise<Record<string, Doc[]>> {
  const documents: Record<string, Doc[]> = {};
  for (const { store, checkpoint, projection } of bindings) {
    for (const { name } of projection.collections) documents[`${checkpoint}/${name}`] = await store.all(name);
  }
  return documents;
}

describe('a writer killed with SIGKILL in the middle of appends and projections', () => {
  let dataDir: string;
  let cells: CellRegistry | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-crash-'));
  });

  afterAll(async () => {
    await cells?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged event, leaves no partial batch, and its read models equal a rebuild', async () => {
    const acks = new Acks();
    const behind: boolean[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const run = await runUntilKilled(dataDir, acks);
      expect({ signal: run.signal, code: run.code, stderr: run.stderr }).toEqual({ signal: 'SIGKILL', code: null, stderr: '' });
      expect(run.acks).toBeGreaterThan(0);
      behind.push(await projectionBehind(dataDir));
    }
    expect(acks.unreadable).toEqual([]);
    // The projection commits every few hundred events under load, so a kill almost always finds it
    // behind; asking it of one kill in ROUNDS keeps the check from ever flaking.
    expect(behind).toContain(true);
    expect(acks.customers.size).toBeGreaterThan(0);

    const clock = new ManualClock();
    cells = openEmbeddedCells({ dataDir, regions: ['eu'], clock, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
    const streams = new Map<string, number[]>();
    for (const event of await allEvents(cells)) {
      if (!streams.has(event.stream)) streams.set(event.stream, []);
      streams.get(event.stream)!.push(event.revision);
    }

    const length = (stream: string) => streams.get(stream)?.length ?? 0;
    const lostCustomers = [...acks.customers].filter(([id, revision]) => length(streamName(customerAggregate.type, id)) <= revision);
    expect(lostCustomers).toEqual([]);
    expect([...acks.batches].filter((batch) => !streams.has(batch))).toEqual([]);
    const partialBatches = [...streams].filter(([stream, revisions]) => stream.startsWith('batch-') && revisions.length !== BATCH_SIZE);
    expect(partialBatches).toEqual([]);
    const gapped = [...streams].filter(([, revisions]) => revisions.some((revision, i) => revision !== i));
    expect(gapped).toEqual([]);

    const cell = cells.cell('eu');
    const bindings = bindingsFor(cell, cells, CONTEXTS.projections);
    const errors: unknown[] = [];
    const worker = Worker.over(cells, { projections: CONTEXTS.projections, clock, ids: new UlidGenerator(clock), log: { error: (message, error) => errors.push([message, error]) } });
    await worker.start({ pollTimers: false });
    await worker.settle();
    const live = await readModels(bindings);
    await worker.stop();
    expect(errors).toEqual([]);

    const customerStreams = [...streams].filter(([stream]) => stream.startsWith(`${customerAggregate.type}-`));
    const expected = customerStreams.map(([stream, revisions]) => [stream.slice(`${customerAggregate.type}-`.length), revisions.length - 1]);
    const byId = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(live['customers/customers'].map((doc) => [doc.id, doc.stream_revision]).sort(byId)).toEqual(expected.sort(byId));
    expect(live['customers/events']).toHaveLength(customerStreams.reduce((sum, [, revisions]) => sum + revisions.length, 0));
    expect(live['timers/timers']).toEqual([]);

    await rebuildProjections(bindings);
    expect(await readModels(bindings)).toEqual(live);
  }, scaled(60_000));
});
