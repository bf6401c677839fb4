import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { assertCollectionName } from '../names';
import { FOREVER } from '../read-store.port';
import { BloomFilter, hashesOf } from './bloom-filter';
import type { StatementCache } from './statement-cache';

/**
 * Keys a tail takes before it is sealed into a run. Smaller tails cost commits fewer pages; fewer,
 * larger runs cost each lookup fewer filters (at 250,000, the 40 runs of 10 million keys made the
 * worker's CPU per event grow by half).
 */
export const TAIL_KEYS = 1_000_000;

export const RUNS_TABLE = 'rk_runs';
const CREATE_RUNS_SQL = `CREATE TABLE IF NOT EXISTS ${RUNS_TABLE} (key_set TEXT NOT NULL, run INTEGER NOT NULL, bloom BLOB NOT NULL, PRIMARY KEY (key_set, run)) STRICT`;
/** The latest time a key of the table was added at (FOREVER: kept for good). */
const AT_COLUMN = `at INTEGER NOT NULL DEFAULT ${FOREVER}`;
const NEWEST_COLUMN = `newest_at INTEGER NOT NULL DEFAULT ${FOREVER}`;
/** The ref a key was last added with, if any. */
const REF_COLUMN = 'ref TEXT';
const keysTableSql = (table: string) => `CREATE TABLE IF NOT EXISTS ${table} (key TEXT NOT NULL PRIMARY KEY, ${AT_COLUMN}, ${REF_COLUMN}) STRICT, WITHOUT ROWID`;
const WRITES_TABLE = 'rk_writes';
const CREATE_WRITES_SQL = `CREATE TABLE IF NOT EXISTS ${WRITES_TABLE} (key_set TEXT NOT NULL PRIMARY KEY, last_write TEXT NOT NULL) STRICT`;

/** A B-tree of keys (the tail or a sealed run), the filter that spares most lookups in it, and the latest time a key of it was added at. */
interface Part {
  table: string;
  bloom: BloomFilter;
  newest: number;
}

interface Run extends Part {
  number: number;
}

/** A key set as this connection knows it: true while `rk_writes` still names this connection's last write to it. */
interface KnownKeySet {
  lastWrite: string;
  tail: Part;
  tailKeys: number;
  /** Newest first. */
  runs: Run[];
}

/**
 * The key sets of a SQLite read store, stored as a small log-structured merge of B-trees. New keys
 * go to the tail (`rk_<name>`), one WITHOUT ROWID B-tree. Keys land all over a B-tree, and a
 * commit writes every page it touched once: in one large tree that is about a page a key, in the
 * tail a small share of one. A tail that reaches TAIL_KEYS is sealed, in the commit that filled it:
 * renamed into a run (`rk_<name>@<n>`, never written again) whose Bloom filter (2 bytes a key) is
 * kept in `rk_runs`, and a new tail begins. The tail's filter lives in memory, grown with each
 * add. A lookup reads only the B-trees whose filter may hold the key: for a new key, usually none.
 *
 * Filters must cover every key, or a key would be missed. Each write to a key set records a token
 * of its own in `rk_writes` (in the same transaction); a connection trusts what it holds in memory
 * only while the token there is the one it last wrote. After another connection's write, or a
 * rollback of its own, it reads the runs and the tail again.
 *
 * Each key keeps the latest time it was added at (`at`, FOREVER for none), and each run the newest
 * of its keys' times (`newest_at`): a lookup from a time skips the runs that are older, and a
 * forget drops them whole. Runs are not merged yet: a lookup tests one more filter for each
 * TAIL_KEYS keys kept.
 */
export class SqliteKeySets {
  private readonly created = new Set<string>();
  private readonly known = new Map<string, KnownKeySet>();
  private readonly connection = randomUUID();
  private writes = 0;

  constructor(
    private readonly db: Database,
    private readonly statements: StatementCache,
    private readonly tailKeys = TAIL_KEYS,
  ) {}

  /** The tail's quoted table name, creating the key set on first use (remembered only outside a transaction, which may roll back). */
  ensure(name: string): string {
    if (!this.created.has(name)) {
      assertCollectionName(name);
      this.db.exec(CREATE_RUNS_SQL);
      this.db.exec(CREATE_WRITES_SQL);
      this.db.exec(keysTableSql(tailOf(name)));
      // Stores made before keys had times: their keys are kept for good.
      this.addColumnIfMissing(RUNS_TABLE, 'newest_at', NEWEST_COLUMN);
      this.addColumnIfMissing(tailOf(name), 'at', AT_COLUMN);
      this.addColumnIfMissing(tailOf(name), 'ref', REF_COLUMN);
      if (!this.db.inTransaction) this.created.add(name);
    }
    return tailOf(name);
  }

  isKeySet(name: string): boolean {
    return this.statements.get(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(`rk_${name}`) !== undefined;
  }

  /**
   * Each B-tree is read once, for the keys its filter may hold (most keys, new ones, are in no
   * filter), and only if it has keys added at or after `notBefore`.
   */
  has(name: string, keys: readonly string[], notBefore = Number.MIN_SAFE_INTEGER): Set<string> {
    const held = new Set<string>();
    if (keys.length === 0) return held;
    const { tail, runs } = this.state(name);
    const parts = [tail, ...runs].filter((part) => part.newest >= notBefore);
    const candidates = parts.map((): string[] => []);
    for (const key of keys) {
      const hashes = hashesOf(key);
      for (let i = 0; i < parts.length; i++) if (parts[i].bloom.mayHold(hashes)) candidates[i].push(key);
    }
    parts.forEach((part, i) => {
      const unresolved = candidates[i].filter((key) => !held.has(key));
      if (unresolved.length > 0) this.lookUp(part.table, unresolved, notBefore, held);
    });
    return held;
  }

  /**
   * Inside the commit's transaction, in key order, so each page of the tail is reached once; a full
   * tail is sealed. A key a run holds already may land in the tail too, which changes no answer.
   * `refs`, when any is given, holds each key's ref.
   */
  add(name: string, keys: string[], at = FOREVER, refs: readonly (string | null)[] = []): void {
    const state = this.state(name);
    const added = refs.some((ref) => ref !== null) ? this.insertWithRefs(state.tail.table, keys, refs, at) : this.insert(state.tail.table, keys, at);
    if (added === 0) return;
    // Keys that were there already are in the filter already; adding them again changes nothing.
    for (const key of keys) state.tail.bloom.add(key);
    state.tail.newest = Math.max(state.tail.newest, at);
    state.tailKeys += added;
    if (state.tailKeys >= this.tailKeys) this.seal(name, state);
    this.recordWrite(name, state);
  }

  private insert(table: string, keys: string[], at: number): number {
    const sql = `INSERT INTO ${table} (key, at) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT (key) DO UPDATE SET at = excluded.at, ref = NULL WHERE excluded.at > at`;
    return this.statements.get(sql).run(at, JSON.stringify(keys.sort())).changes;
  }

  private insertWithRefs(table: string, keys: readonly string[], refs: readonly (string | null)[], at: number): number {
    const pairs = keys.map((key, index) => [key, refs[index]] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const sql = `INSERT INTO ${table} (key, at, ref) SELECT value ->> 0, ?, value ->> 1 FROM json_each(?) WHERE true ON CONFLICT (key) DO UPDATE SET at = excluded.at, ref = excluded.ref WHERE excluded.at > at`;
    return this.statements.get(sql).run(at, JSON.stringify(pairs)).changes;
  }

  /** Inside the commit's transaction: drops the sealed runs whose every key was added before `before`. */
  forget(name: string, before: number): void {
    const state = this.state(name);
    const expired = state.runs.filter((run) => run.newest < before);
    if (expired.length === 0) return;
    for (const run of expired) {
      this.db.exec(`DROP TABLE ${run.table}`);
      this.statements.get(`DELETE FROM ${RUNS_TABLE} WHERE key_set = ? AND run = ?`).run(name, run.number);
    }
    state.runs = state.runs.filter((run) => run.newest >= before);
    this.recordWrite(name, state);
  }

  /** Inside the reset's transaction: every key of the set goes. */
  reset(name: string): void {
    const state = this.state(name);
    for (const run of state.runs) this.db.exec(`DROP TABLE IF EXISTS ${run.table}`);
    this.statements.get(`DELETE FROM ${RUNS_TABLE} WHERE key_set = ?`).run(name);
    this.db.exec(`DELETE FROM ${state.tail.table}`);
    Object.assign(state, { tail: this.emptyTail(name), tailKeys: 0, runs: [] });
    this.recordWrite(name, state);
  }

  private seal(name: string, state: KnownKeySet): void {
    const run = this.statements.get(`SELECT coalesce(max(run), 0) + 1 FROM ${RUNS_TABLE} WHERE key_set = ?`).pluck().get(name) as number;
    const sealed: Run = { table: runOf(name, run), bloom: state.tail.bloom, newest: state.tail.newest, number: run };
    this.db.exec(`ALTER TABLE ${state.tail.table} RENAME TO ${sealed.table}`);
    this.db.exec(keysTableSql(tailOf(name)));
    this.statements.get(`INSERT INTO ${RUNS_TABLE} (key_set, run, bloom, newest_at) VALUES (?, ?, ?, ?)`).run(name, run, Buffer.from(sealed.bloom.bits), sealed.newest);
    Object.assign(state, { tail: this.emptyTail(name), tailKeys: 0, runs: [sealed, ...state.runs] });
  }

  private recordWrite(name: string, state: KnownKeySet): void {
    state.lastWrite = `${this.connection}/${++this.writes}`;
    this.statements.get(`INSERT INTO ${WRITES_TABLE} (key_set, last_write) VALUES (?, ?) ON CONFLICT (key_set) DO UPDATE SET last_write = excluded.last_write`).run(name, state.lastWrite);
  }

  /** What this connection holds in memory, read again unless `rk_writes` still names its own last write. */
  private state(name: string): KnownKeySet {
    const tail = this.ensure(name);
    const lastWrite = (this.statements.get(`SELECT last_write FROM ${WRITES_TABLE} WHERE key_set = ?`).pluck().get(name) as string | undefined) ?? '';
    let state = this.known.get(name);
    if (!state || state.lastWrite !== lastWrite) {
      const rows = this.statements.get(`SELECT key, at FROM ${tail}`).raw().all() as [string, number][];
      const loaded = this.emptyTail(name);
      for (const [key, at] of rows) {
        loaded.bloom.add(key);
        loaded.newest = Math.max(loaded.newest, at);
      }
      state = { lastWrite, tail: loaded, tailKeys: rows.length, runs: this.runsOf(name) };
      this.known.set(name, state);
    }
    return state;
  }

  private emptyTail(name: string): Part {
    return { table: tailOf(name), bloom: BloomFilter.sizedFor(this.tailKeys), newest: Number.MIN_SAFE_INTEGER };
  }

  private runsOf(name: string): Run[] {
    const rows = this.statements.get(`SELECT run, bloom, newest_at FROM ${RUNS_TABLE} WHERE key_set = ? ORDER BY run DESC`).all(name) as { run: number; bloom: Buffer; newest_at: number }[];
    return rows.map(({ run, bloom, newest_at: newest }) => {
      this.addColumnIfMissing(runOf(name, run), 'at', AT_COLUMN);
      this.addColumnIfMissing(runOf(name, run), 'ref', REF_COLUMN);
      return { table: runOf(name, run), bloom: new BloomFilter(new Uint8Array(bloom)), newest, number: run };
    });
  }

  private lookUp(table: string, keys: readonly string[], notBefore: number, held: Set<string>): void {
    const sql = `SELECT key FROM ${table} WHERE key IN (SELECT value FROM json_each(?)) AND at >= ?`;
    const found = this.statements.get(sql).pluck().all(JSON.stringify(keys), notBefore) as string[];
    for (const key of found) held.add(key);
  }

  private addColumnIfMissing(table: string, column: string, definition: string): void {
    const columns = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table.replaceAll('"', '')) as string[];
    if (!columns.includes(column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${definition}`);
  }
}

export const tailOf = (name: string): string => `"rk_${name}"`;
/** `@` is in no collection name, so a run's table is no other key set's tail. */
export const runOf = (name: string, run: number): string => `"rk_${name}@${run}"`;
