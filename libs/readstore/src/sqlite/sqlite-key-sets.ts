import type { Database } from 'better-sqlite3';
import { assertCollectionName } from '../names';
import { BloomFilter, hashesOf } from './bloom-filter';
import type { StatementCache } from './statement-cache';

/** Keys a tail takes before it is sealed into a run: a B-tree small enough that a commit touches few of its pages. */
export const TAIL_KEYS = 250_000;

const RUNS_TABLE = 'rk_runs';
const CREATE_RUNS_SQL = `CREATE TABLE IF NOT EXISTS ${RUNS_TABLE} (key_set TEXT NOT NULL, run INTEGER NOT NULL, bloom BLOB NOT NULL, PRIMARY KEY (key_set, run)) STRICT`;

/** A sealed run and the filter that spares most lookups in it. */
interface Run {
  table: string;
  bloom: BloomFilter;
}

/**
 * The key sets of a SQLite read store, stored as a small log-structured merge of B-trees. New keys
 * go to the tail (`rk_<name>`), one WITHOUT ROWID B-tree. Keys land all over a B-tree, and a
 * commit writes every page it touched once: in one large tree that is about a page a key, in the
 * tail a small share of one. A tail that reaches TAIL_KEYS is sealed, in the commit that filled it:
 * renamed into a run (`rk_<name>@<n>`, never written again) with a Bloom filter of its keys, kept
 * in `rk_runs` and in memory (2 bytes a key), and a new tail begins. A lookup reads the tail, then
 * each run whose filter may hold the key. Runs are not merged yet: a lookup reads one more filter
 * for each TAIL_KEYS keys stored.
 */
export class SqliteKeySets {
  private readonly known = new Set<string>();
  /** Each key set's runs, newest first, as last read from `rk_runs`, and how many keys its tail held then. */
  private readonly loaded = new Map<string, { runs: Run[]; tailKeys: number }>();

  constructor(
    private readonly db: Database,
    private readonly statements: StatementCache,
    private readonly tailKeys = TAIL_KEYS,
  ) {}

  /** The tail's quoted table name, creating the key set on first use (remembered only outside a transaction, which may roll back). */
  ensure(name: string): string {
    if (!this.known.has(name)) {
      assertCollectionName(name);
      this.db.exec(CREATE_RUNS_SQL);
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${tailOf(name)} (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
      if (!this.db.inTransaction) this.known.add(name);
    }
    return tailOf(name);
  }

  isKeySet(name: string): boolean {
    return this.statements.get(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(`rk_${name}`) !== undefined;
  }

  has(name: string, keys: readonly string[]): Set<string> {
    const held = new Set<string>();
    if (keys.length === 0) return held;
    this.lookUp(this.ensure(name), keys, held);
    const { runs } = this.state(name);
    if (runs.length === 0) return held;
    const hashed = keys.filter((key) => !held.has(key)).map((key) => ({ key, hashes: hashesOf(key) }));
    for (const run of runs) {
      const candidates = hashed.filter(({ key, hashes }) => !held.has(key) && run.bloom.mayHold(hashes)).map(({ key }) => key);
      if (candidates.length > 0) this.lookUp(run.table, candidates, held);
    }
    return held;
  }

  /**
   * Inside the commit's transaction, in key order, so each page of the tail is reached once; a full
   * tail is sealed. A key a run holds already may land in the tail too, which changes no answer.
   */
  add(name: string, keys: string[]): void {
    const tail = this.ensure(name);
    const state = this.state(name);
    const json = JSON.stringify(keys.sort());
    state.tailKeys += this.statements.get(`INSERT INTO ${tail} (key) SELECT value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`).run(json).changes;
    if (state.tailKeys >= this.tailKeys) this.seal(name);
  }

  /** Inside the reset's transaction: every key of the set goes. */
  reset(name: string): void {
    const tail = this.ensure(name);
    for (const run of this.runsOf(name)) this.db.exec(`DROP TABLE IF EXISTS ${run.table}`);
    this.statements.get(`DELETE FROM ${RUNS_TABLE} WHERE key_set = ?`).run(name);
    this.db.exec(`DELETE FROM ${tail}`);
    this.loaded.delete(name);
  }

  private seal(name: string): void {
    const run = this.statements.get(`SELECT coalesce(max(run), 0) + 1 FROM ${RUNS_TABLE} WHERE key_set = ?`).pluck().get(name) as number;
    const keys = this.db.prepare(`SELECT key FROM ${tailOf(name)}`).pluck().all() as string[];
    const bloom = BloomFilter.sizedFor(keys.length);
    keys.forEach((key) => bloom.add(key));
    this.db.exec(`ALTER TABLE ${tailOf(name)} RENAME TO ${runOf(name, run)}`);
    this.db.exec(`CREATE TABLE ${tailOf(name)} (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
    this.statements.get(`INSERT INTO ${RUNS_TABLE} (key_set, run, bloom) VALUES (?, ?, ?)`).run(name, run, Buffer.from(bloom.bits));
    // Read again after the commit: a rollback takes the run away.
    this.loaded.delete(name);
  }

  /** The runs as `rk_runs` has them now: read again whenever another connection sealed or reset one. */
  private state(name: string): { runs: Run[]; tailKeys: number } {
    const count = this.statements.get(`SELECT count(*) FROM ${RUNS_TABLE} WHERE key_set = ?`).pluck().get(name) as number;
    let state = this.loaded.get(name);
    if (!state || state.runs.length !== count) {
      state = { runs: this.runsOf(name), tailKeys: this.statements.get(`SELECT count(*) FROM ${this.ensure(name)}`).pluck().get() as number };
      this.loaded.set(name, state);
    }
    return state;
  }

  private runsOf(name: string): Run[] {
    const rows = this.statements.get(`SELECT run, bloom FROM ${RUNS_TABLE} WHERE key_set = ? ORDER BY run DESC`).all(name) as { run: number; bloom: Buffer }[];
    return rows.map(({ run, bloom }) => ({ table: runOf(name, run), bloom: new BloomFilter(new Uint8Array(bloom)) }));
  }

  private lookUp(table: string, keys: readonly string[], held: Set<string>): void {
    const found = this.statements.get(`SELECT key FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`).pluck().all(JSON.stringify(keys)) as string[];
    for (const key of found) held.add(key);
  }
}

const tailOf = (name: string): string => `"rk_${name}"`;
/** `@` is in no collection name, so a run's table is no other key set's tail. */
const runOf = (name: string, run: number): string => `"rk_${name}@${run}"`;
