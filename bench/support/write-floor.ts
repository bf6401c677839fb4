import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openSqliteDatabase } from '@tally/eventstore';

/**
 * The least a projection must do for one table: INSERT the rows it produced into a fresh copy of
 * the table (same columns, same indexes, same pragmas), in transactions of `batch` rows, with no
 * reads, no JSON and no decryption. Returns how many rows and how long, in milliseconds.
 */
export function insertFloor(sourceFile: string, table: string, batch: number): { rows: number; ms: number } {
  const source = new Database(sourceFile, { readonly: true });
  const schema = source.prepare('SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC').pluck().all(table) as string[];
  const rows = source.prepare(`SELECT * FROM "${table}" ORDER BY position`).raw().all() as unknown[][];
  source.close();

  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-floor-'));
  const target = openSqliteDatabase(join(dir, 'floor.sqlite'));
  try {
    for (const sql of schema) target.exec(sql);
    const insert = target.prepare(`INSERT INTO "${table}" VALUES (${rows[0].map(() => '?').join(', ')})`);
    const insertAll = target.transaction((chunk: unknown[][]) => {
      for (const row of chunk) insert.run(...row);
    });
    const started = performance.now();
    for (let i = 0; i < rows.length; i += batch) insertAll(rows.slice(i, i + batch));
    return { rows: rows.length, ms: performance.now() - started };
  } finally {
    target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
