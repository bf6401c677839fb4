/**
 * Projection catch-up: the customers read model built from a log of realistic customer events
 * (encrypted personal data included), against a bare readAll loop over the same events, and
 * against the write floor: INSERTing only the public-event rows the projection wrote.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/catch-up.bench.js
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ManualClock } from '@tally/kernel';
import { bindingsFor, catchUpProjection } from '@tally/runtime';
import { openEmbeddedCells, type Cell, type CellRegistry } from '@tally/cells';
import { CONTEXTS } from '../apps/contexts';
import { writeCustomerLog } from './support/customer-log';
import { medianResult, medianShare, throughputTable, type ThroughputResult } from './support/throughput-table';
import { insertFloor } from './support/write-floor';

const EVENTS = 100_000;
const PAGE = 1_000;
/** The target (issue 10): the catch-up runs at ≥ 40% of the write floor measured in the same round. */
const SHARE_OF_FLOOR = 0.4;
const ROUNDS = 3;
const CUSTOMERS = 'customers';

/** The data folder opened afresh for every case: cold caches (data keys, statements), as after a restart. */
function open(dataDir: string): CellRegistry {
  return openEmbeddedCells({ dataDir, regions: ['eu'], clock: new ManualClock('2026-06-01T00:00:00.000Z'), pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
}

async function measure(dataDir: string, name: string, run: (cell: Cell, cells: CellRegistry) => Promise<number>): Promise<ThroughputResult> {
  const cells = open(dataDir);
  try {
    const started = performance.now();
    const events = await run(cells.cell('eu'), cells);
    return { name, events, ms: performance.now() - started };
  } finally {
    await cells.close();
  }
}

/** Pages through the customer streams as catch-up does; `each` sees every event. */
async function readCustomerEvents(cell: Cell, each: (event: Awaited<ReturnType<Cell['events']['readAll']>>[number]) => Promise<void>): Promise<number> {
  let read = 0;
  let from: bigint | undefined;
  for (;;) {
    const page = await cell.events.readAll({ fromPosition: from, limit: PAGE, filter: { streamPrefixes: ['customer-'] } });
    if (page.length === 0) return read;
    for (const event of page) await each(event);
    read += page.length;
    from = page[page.length - 1].position;
  }
}

/** One round on a fresh copy of the log: the reads, the catch-up, then the floor of what it wrote. */
async function round(logDir: string): Promise<ThroughputResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-catch-up-round-'));
  try {
    cpSync(logDir, dataDir, { recursive: true });
    const read = await measure(dataDir, `baseline: readAll, pages of ${PAGE}`, (cell) => readCustomerEvents(cell, async () => {}));
    const decrypt = await measure(dataDir, 'readAll + decrypt personal data', (cell) =>
      readCustomerEvents(cell, async (event) => {
        await cell.pii.decode(event.type, event.data);
      }),
    );
    const catchUp = await measure(dataDir, 'catchUpProjection, customers read model', (cell, cells) => {
      const binding = bindingsFor(cell, cells, CONTEXTS.projections).find((b) => b.checkpoint === CUSTOMERS);
      if (!binding) throw new Error(`no ${CUSTOMERS} projection in the composition`);
      return catchUpProjection(binding);
    });
    const floor = insertFloor(join(dataDir, 'eu.sqlite'), 'rm_events', PAGE);
    const floorName = `floor: INSERT only the projection's ${floor.rows.toLocaleString('en-US')} public-event rows, batches of ${PAGE}`;
    return [read, decrypt, catchUp, { name: floorName, events: floor.rows, ms: floor.ms }];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runCatchUpBench(): Promise<string> {
  const logDir = mkdtempSync(join(tmpdir(), 'tally-bench-catch-up-'));
  try {
    const writing = open(logDir);
    const started = performance.now();
    const customers = await writeCustomerLog(writing.cell('eu'), EVENTS);
    const writeMs = performance.now() - started;
    await writing.close();

    const rounds: ThroughputResult[][] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(logDir));
    const byCase = rounds[0].map((_, i) => rounds.map((r) => r[i]));
    const results = byCase.map(medianResult);
    const [, , catchUps, floors] = byCase;
    results[2] = { ...results[2], share: { of: medianShare(catchUps, floors), target: SHARE_OF_FLOOR } };
    const setup =
      `${EVENTS.toLocaleString('en-US')} events of ${customers.toLocaleString('en-US')} customers, written in ${(writeMs / 1000).toFixed(1)} s; ` +
      `each case the median of ${ROUNDS} rounds, each round on a fresh copy of the log; the share is the median of the rounds' catch-up ÷ floor.`;
    return `${setup}\n\n${throughputTable(results, '% of floor')}`;
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runCatchUpBench().then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
