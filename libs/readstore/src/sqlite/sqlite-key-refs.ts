import { BloomFilter, hashesOf } from './bloom-filter';
import { RUNS_TABLE, runOf, tailOf, type SqliteKeySets } from './sqlite-key-sets';
import type { StatementCache } from './statement-cache';

/** A sealed run as a reader knows it. */
interface SealedRun {
  table: string;
  bloom: BloomFilter;
  newest: number;
}

/**
 * Reads the refs of a key set's keys on a connection that does not write to the set (the API,
 * beside the worker that does), without the filter of the tail that only a writing connection keeps
 * in memory: the tail is read straight from its B-tree, and each sealed run through its filter,
 * read once, since a run never changes (a run number that comes back after its run was dropped
 * has another newest time, and so another filter).
 */
export class SqliteKeyRefs {
  /** By key set, then by run table and newest time: the runs each set had at the last read. */
  private readonly runs = new Map<string, Map<string, SealedRun>>();

  constructor(
    private readonly statements: StatementCache,
    private readonly keySets: Pick<SqliteKeySets, 'isKeySet'>,
  ) {}

  refs(name: string, keys: readonly string[], notBefore = Number.MIN_SAFE_INTEGER): Map<string, string | null> {
    const found = new Map<string, string | null>();
    if (keys.length === 0 || !this.keySets.isKeySet(name)) return found;
    this.lookUp(tailOf(name), keys, notBefore, found);
    const hashes = keys.map(hashesOf);
    for (const run of this.sealedRuns(name)) {
      if (run.newest < notBefore) continue;
      const candidates = keys.filter((key, index) => !found.has(key) && run.bloom.mayHold(hashes[index]));
      if (candidates.length > 0) this.lookUp(run.table, candidates, notBefore, found);
    }
    return found;
  }

  /** Newest first, as the writer seals them. */
  private sealedRuns(name: string): SealedRun[] {
    const rows = this.statements.get(`SELECT run, newest_at FROM ${RUNS_TABLE} WHERE key_set = ? ORDER BY run DESC`).all(name) as { run: number; newest_at: number }[];
    const known = this.runs.get(name);
    const live = new Map<string, SealedRun>();
    for (const { run, newest_at: newest } of rows) {
      const id = `${run}\u0000${newest}`;
      live.set(id, known?.get(id) ?? this.read(name, run, newest));
    }
    this.runs.set(name, live);
    return [...live.values()];
  }

  private read(name: string, run: number, newest: number): SealedRun {
    const bits = this.statements.get(`SELECT bloom FROM ${RUNS_TABLE} WHERE key_set = ? AND run = ?`).pluck().get(name, run) as Buffer;
    return { table: runOf(name, run), bloom: new BloomFilter(new Uint8Array(bits)), newest };
  }

  /** Every column, so that a run sealed before keys had refs reads as refless. */
  private lookUp(table: string, keys: readonly string[], notBefore: number, found: Map<string, string | null>): void {
    const sql = `SELECT * FROM ${table} WHERE key IN (SELECT value FROM json_each(?)) AND at >= ?`;
    const rows = this.statements.get(sql).all(JSON.stringify(keys), notBefore) as { key: string; ref?: string | null }[];
    for (const { key, ref } of rows) if (!found.has(key)) found.set(key, ref ?? null);
  }
}
