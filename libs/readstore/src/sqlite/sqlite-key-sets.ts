import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { assertCollectionName } from '../names';
import { BloomFilter, hashesOf } from './bloom-filter';
import type { StatementCache } from './statement-cache';

/** Keys a tail takes before it is sealed into a run: a B-tree small enough that a commit touches few of its pages. */
export const TAIL_KEYS = 250_000;

const RUNS_TABLE = 'rk_runs';
const CREATE_RUNS_SQL = `CREATE TABLE IF NOT EXISTS ${RUNS_TABLE} (key_set TEXT NOT NULL, run INTEGER NOT NULL, bloom BLOB NOT NULL, PRIMARY KEY (key_set, run)) STRICT`;
const WRITES_TABLE = 'rk_writes';
const CREATE_WRITES_SQL = `CREATE TABLE IF NOT EXISTS ${WRITES_TABLE} (key_set TEXT NOT NULL PRIMARY KEY, last_write TEXT NOT NULL) STRICT`;

/** A B-tree of keys (the tail or a sealed run) and the filter that spares most lookups in it. */
interface Part {
  table: string;
  bloom: BloomFilter;
}

/** A key set as this connection knows it: true while `rk_writes` still names this connection's last write to it. */
interface KnownKeySet {
  lastWrite: string;
  tail: Part;
  tailKeys: number;
  /** Newest first. */
  runs: Part[];
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
 * rollback of its own, it reads the runs and the tail again. Runs are not merged yet: a lookup
 * tests one more filter for each TAIL_KEYS keys stored.
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
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${tailOf(name)} (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
      if (!this.db.inTransaction) this.created.add(name);
    }
    return tailOf(name);
  }

  isKeySet(name: string): boolean {
    return this.statements.get(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(`rk_${name}`) !== undefined;
  }

  /** Each B-tree is read once, for the keys its filter may hold; most keys, new ones, are in no filter. */
  has(name: string, keys: readonly string[]): Set<string> {
    const held = new Set<string>();
    if (keys.length === 0) return held;
    const { tail, runs } = this.state(name);
    const parts = [tail, ...runs];
    const candidates = parts.map((): string[] => []);
    for (const key of keys) {
      const hashes = hashesOf(key);
      for (let i = 0; i < parts.length; i++) if (parts[i].bloom.mayHold(hashes)) candidates[i].push(key);
    }
    parts.forEach((part, i) => {
      const unresolved = candidates[i].filter((key) => !held.has(key));
      if (unresolved.length > 0) this.lookUp(part.table, unresolved, held);
    });
    return held;
  }

  /**
   * Inside the commit's transaction, in key order, so each page of the tail is reached once; a full
   * tail is sealed. A key a run holds already may land in the tail too, which changes no answer.
   */
  add(name: string, keys: string[]): void {
    const state = this.state(name);
    const json = JSON.stringify(keys.sort());
    const added = this.statements.get(`INSERT INTO ${state.tail.table} (key) SELECT value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`).run(json).changes;
    if (added === 0) return;
    // Keys that were there already are in the filter already; adding them again changes nothing.
    for (const key of keys) state.tail.bloom.add(key);
    state.tailKeys += added;
    if (state.tailKeys >= this.tailKeys) this.seal(name, state);
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
    const sealed = { table: runOf(name, run), bloom: state.tail.bloom };
    this.db.exec(`ALTER TABLE ${state.tail.table} RENAME TO ${sealed.table}`);
    this.db.exec(`CREATE TABLE ${tailOf(name)} (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
    this.statements.get(`INSERT INTO ${RUNS_TABLE} (key_set, run, bloom) VALUES (?, ?, ?)`).run(name, run, Buffer.from(sealed.bloom.bits));
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
      const keys = this.statements.get(`SELECT key FROM ${tail}`).pluck().all() as string[];
      const bloom = this.emptyTail(name).bloom;
      for (const key of keys) bloom.add(key);
      state = { lastWrite, tail: { table: tail, bloom }, tailKeys: keys.length, runs: this.runsOf(name) };
      this.known.set(name, state);
    }
    return state;
  }

  private emptyTail(name: string): Part {
    return { table: tailOf(name), bloom: BloomFilter.sizedFor(this.tailKeys) };
  }

  private runsOf(name: string): Part[] {
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
