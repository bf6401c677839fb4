/**
 * Projection catch-up: the customers read model built from a log of realistic customer events
 * (encrypted personal data included), against a bare readAll loop over the same events, and
 * against the write floor: INSERTing only the public-event rows the projection wrote.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/catch-up.bench.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ManualClock } from '@tally/kernel';
import { bindingsFor, catchUpProjection, openEmbeddedCells, type Cell, type CellRegistry } from '@tally/platform';
import { CONTEXTS } from '../apps/worker/src/contexts';
import { writeCustomerLog } from './support/customer-log';
import { throughputTable, type ThroughputResult } from './support/throughput-table';
import { insertFloor } from './support/write-floor';

const EVENTS = 100_000;
const PAGE = 1_000;
const TARGET = 50_000;
const CUSTOMERS = 'customers';

/** The data folder opened afresh for every case: cold caches (data keys, statements), as after a restart. */
function open(dataDir: string): CellRegistry {
  return openEmbeddedCells({ dataDir, regions: ['eu'], clock: new ManualClock('2026-06-01T00:00:00.000Z'), pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters });
}

async function measure(dataDir: string, name: string, run: (cell: Cell, cells: CellRegistry) => Promise<number>, target?: number): Promise<ThroughputResult> {
  const cells = open(dataDir);
  try {
    const started = performance.now();
    const events = await run(cells.cell('eu'), cells);
    return { name, events, ms: performance.now() - started, target };
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

export async function runCatchUpBench(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-catch-up-'));
  try {
    const writing = open(dataDir);
    const started = performance.now();
    const customers = await writeCustomerLog(writing.cell('eu'), EVENTS);
    const writeMs = performance.now() - started;
    await writing.close();

    const results = [
      await measure(dataDir, `baseline: readAll, pages of ${PAGE}`, (cell) => readCustomerEvents(cell, async () => {})),
      await measure(dataDir, 'readAll + decrypt personal data', (cell) =>
        readCustomerEvents(cell, async (event) => {
          await cell.pii.decode(event.type, event.data);
        }),
      ),
      await measure(
        dataDir,
        'catchUpProjection, customers read model',
        (cell, cells) => {
          const binding = bindingsFor(cell, cells, CONTEXTS.projections).find((b) => b.checkpoint === CUSTOMERS);
          if (!binding) throw new Error(`no ${CUSTOMERS} projection in the composition`);
          return catchUpProjection(binding);
        },
        TARGET,
      ),
    ];
    const floor = insertFloor(join(dataDir, 'eu.sqlite'), 'rm_events', PAGE);
    results.push({ name: `floor: INSERT only the projection's ${floor.rows.toLocaleString('en-US')} public-event rows, batches of ${PAGE}`, events: floor.rows, ms: floor.ms });
    const setup = `${EVENTS.toLocaleString('en-US')} events of ${customers.toLocaleString('en-US')} customers, written in ${(writeMs / 1000).toFixed(1)} s.`;
    return `${setup}\n\n${throughputTable(results)}`;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
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
