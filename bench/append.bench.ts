/**
 * Event store (SQLite) throughput: single-event and batched appends, catch-up reads, and raw
 * better-sqlite3 INSERTs of the same rows in one transaction as the baseline. The baseline and the
 * batches of 1000 take turns over several rounds, each in a fresh file.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/append.bench.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteDatabase, SqliteEventStore, type NewEvent } from '@tally/eventstore';
import { SystemClock, UlidGenerator } from '@tally/kernel';
import { medianResult, medianShare, throughputTable, type ThroughputResult } from './support/throughput-table';

/** The target (issue 10): batched appends run at ≥ 100% of the raw INSERTs, in the same round. */
const SHARE_OF_RAW = 1;
const ROUNDS = 3;

const ids = new UlidGenerator(new SystemClock());

function makeEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: ids.ulid(),
    type: 'InvoiceLineAdded',
    data: { invoice_id: `inv_${i}`, price_id: 'price_01JBENCH', quantity: (i % 7) + 1, amount: '19.99', currency: 'eur', description: 'Pro plan, monthly' },
    metadata: {
      tenant_id: 'ten_01JBENCHTENANT',
      environment: 'live',
      actor: 'key:rk_live_bench',
      request_id: `req_${i}`,
      causation_id: null,
      correlation_id: `req_${i}`,
      occurred_at: '2026-01-01T00:00:00.000Z',
      schema_version: 1,
    },
  }));
}

async function time(run: () => Promise<number>): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  const events = await run();
  return { events, ms: performance.now() - started };
}

/** Appends the events in batches of `size`, each batch to a new stream with an exact expected revision. */
async function appendBatches(store: SqliteEventStore, label: string, events: NewEvent[], size: number): Promise<ThroughputResult> {
  const measured = await time(async () => {
    for (let b = 0; b * size < events.length; b++) {
      await store.append(`${label}-${b}`, events.slice(b * size, (b + 1) * size), { expectedRevision: 'no_stream' });
    }
    return events.length;
  });
  return { name: `append, batches of ${size}`, ...measured, target: 100_000 };
}

/** Many appends of one event to few streams, as command handlers do. */
async function appendSingles(store: SqliteEventStore, count: number): Promise<ThroughputResult> {
  const events = makeEvents(count);
  const streams = 100;
  const measured = await time(async () => {
    for (let i = 0; i < count; i++) {
      const round = Math.floor(i / streams);
      await store.append(`single-${i % streams}`, [events[i]], { expectedRevision: round === 0 ? 'no_stream' : round - 1 });
    }
    return count;
  });
  return { name: 'append, 1 event per call', ...measured };
}

async function catchUpWithReadAll(store: SqliteEventStore): Promise<ThroughputResult> {
  const measured = await time(async () => {
    let read = 0;
    let from: bigint | undefined;
    for (;;) {
      const page = await store.readAll({ fromPosition: from, limit: 1000 });
      if (page.length === 0) return read;
      read += page.length;
      from = page[page.length - 1].position;
    }
  });
  return { name: 'catch-up, readAll pages of 1000', ...measured, target: 50_000 };
}

async function catchUpWithSubscription(store: SqliteEventStore): Promise<ThroughputResult> {
  const head = (await store.headPosition()) ?? 0n;
  const measured = await time(async () => {
    let read = 0;
    const subscription = store.subscribeToAll({});
    for await (const event of subscription) {
      read += 1;
      if (event.position === head) break;
    }
    return read;
  });
  return { name: 'catch-up, subscribeToAll', ...measured, target: 50_000 };
}

/**
 * The floor: the same rows (stream, revision, id, JSON text) through one prepared INSERT in one
 * transaction, with no revision check, into the same schema in a fresh file.
 */
async function rawInserts(file: string, events: NewEvent[], size: number): Promise<ThroughputResult> {
  const db = openSqliteDatabase(file);
  try {
    new SqliteEventStore(db);
    const insert = db.prepare('INSERT INTO es_events (stream, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
    const measured = await time(async () => {
      db.transaction(() => {
        events.forEach((e, i) =>
          insert.run(`raw-${Math.floor(i / size)}`, i % size, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)),
        );
      })();
      return events.length;
    });
    return { name: 'baseline: raw INSERTs of the batch-1000 rows, one transaction', ...measured };
  } finally {
    db.close();
  }
}

/** Batches of 1000 into a fresh file, after a warm-up as the shared store has. */
async function freshBatches(file: string, events: NewEvent[]): Promise<ThroughputResult> {
  const db = openSqliteDatabase(file);
  try {
    const store = new SqliteEventStore(db);
    await appendBatches(store, 'warmup', makeEvents(2_000), 100);
    const result = await appendBatches(store, 'batch1000', events, 1_000);
    await store.close();
    return result;
  } finally {
    db.close();
  }
}

export async function runAppendBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-'));
  const db = openSqliteDatabase(join(dir, 'events.db'));
  try {
    const thousands = makeEvents(200_000);
    const raw: ThroughputResult[] = [];
    const batches: ThroughputResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawInserts(join(dir, `baseline-${round}.db`), thousands, 1_000));
      batches.push(await freshBatches(join(dir, `batches-${round}.db`), thousands));
    }
    const store = new SqliteEventStore(db);
    await appendBatches(store, 'warmup', makeEvents(2_000), 100);
    const results = [
      medianResult(raw),
      await appendSingles(store, 20_000),
      await appendBatches(store, 'batch100', makeEvents(100_000), 100),
      { ...medianResult(batches), target: undefined, share: { of: medianShare(batches, raw), target: SHARE_OF_RAW } },
    ];
    await appendBatches(store, 'batch1000', thousands, 1_000);
    results.push(await catchUpWithReadAll(store), await catchUpWithSubscription(store));
    await store.close();
    return `Baseline and batches of 1000: the median of ${ROUNDS} interleaved rounds; the share is the median of the rounds' batches ÷ raw INSERTs.\n\n${throughputTable(results, '% of raw INSERTs')}`;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runAppendBench().then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
