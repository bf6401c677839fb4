import Database from 'better-sqlite3';
import { BloomFilter } from './bloom-filter';
import { SqliteKeySets } from './sqlite-key-sets';
import { StatementCache } from './statement-cache';

describe('SqliteKeySets', () => {
  let db: Database.Database;
  const keySetsOn = (database: Database.Database) => new SqliteKeySets(database, new StatementCache(database), 3);
  const tables = () => (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'rk_seen%' ORDER BY name`).pluck().all() as string[]);

  beforeEach(() => (db = new Database(':memory:')));
  afterEach(() => db.close());

  it('seals a full tail into a run and finds keys in the tail and in every run', () => {
    const keySets = keySetsOn(db);
    keySets.add('seen', ['c', 'a', 'b']);
    keySets.add('seen', ['d', 'e']);
    keySets.add('seen', ['f', 'a']);

    expect(tables()).toEqual(['rk_seen', 'rk_seen@1', 'rk_seen@2']);
    expect([...keySets.has('seen', ['a', 'b', 'c', 'd', 'e', 'f', 'g'])].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('reads the runs another connection sealed, as it finds them', () => {
    const writer = keySetsOn(db);
    const reader = keySetsOn(db);
    expect(reader.has('seen', ['a'])).toEqual(new Set());
    writer.add('seen', ['a', 'b', 'c']);
    writer.add('seen', ['d']);

    expect([...reader.has('seen', ['a', 'd', 'x'])].sort()).toEqual(['a', 'd']);
  });

  it("finds the keys another writer added to the tail, which its own filter of the tail does not hold", () => {
    const one = keySetsOn(db);
    const other = keySetsOn(db);
    one.add('seen', ['a']);
    other.add('seen', ['b']);

    expect([...one.has('seen', ['a', 'b', 'x'])].sort()).toEqual(['a', 'b']);
    one.add('seen', ['c']);
    expect([...other.has('seen', ['a', 'b', 'c'])].sort()).toEqual(['a', 'b', 'c']);
  });

  it('reads the tail again after a rollback of its own, even when another writer wrote since', () => {
    const one = keySetsOn(db);
    const other = keySetsOn(db);
    one.add('seen', ['a']);
    expect(() =>
      db.transaction(() => {
        one.add('seen', ['b']);
        throw new Error('the commit failed');
      })(),
    ).toThrow('the commit failed');
    other.add('seen', ['c']);

    expect([...one.has('seen', ['a', 'b', 'c'])].sort()).toEqual(['a', 'c']);
  });

  it('forgets a run whose commit rolled back', () => {
    const keySets = keySetsOn(db);
    keySets.add('seen', ['a']);
    expect(() =>
      db.transaction(() => {
        keySets.add('seen', ['b', 'c']);
        throw new Error('the commit failed');
      })(),
    ).toThrow('the commit failed');

    expect(tables()).toEqual(['rk_seen']);
    expect(keySets.has('seen', ['a', 'b', 'c'])).toEqual(new Set(['a']));
  });

  it('drops on forget the sealed runs whose every key was added before then, and skips them on lookups from a later time', () => {
    const keySets = keySetsOn(db);
    keySets.add('seen', ['a', 'b', 'c'], 10);
    keySets.add('seen', ['d', 'e'], 20);
    keySets.add('seen', ['f'], 30);
    expect(tables()).toEqual(['rk_seen', 'rk_seen@1', 'rk_seen@2']);

    expect([...keySets.has('seen', ['a', 'd', 'f'], 20)].sort()).toEqual(['d', 'f']);
    keySets.forget('seen', 20);

    expect(tables()).toEqual(['rk_seen', 'rk_seen@2']);
    expect([...keySets.has('seen', ['a', 'd', 'f'], 20)].sort()).toEqual(['d', 'f']);
    expect([...keySetsOn(db).has('seen', ['a', 'd', 'f'])].sort()).toEqual(['d', 'f']);
  });

  it('keeps for good the keys of a store made before keys had times', () => {
    db.exec(`CREATE TABLE rk_runs (key_set TEXT NOT NULL, run INTEGER NOT NULL, bloom BLOB NOT NULL, PRIMARY KEY (key_set, run)) STRICT`);
    db.exec(`CREATE TABLE "rk_seen" (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
    db.exec(`CREATE TABLE "rk_seen@1" (key TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID`);
    db.exec(`INSERT INTO "rk_seen" VALUES ('tail')`);
    db.exec(`INSERT INTO "rk_seen@1" VALUES ('run')`);
    const filter = BloomFilter.sizedFor(1);
    filter.add('run');
    db.prepare(`INSERT INTO rk_runs VALUES ('seen', 1, ?)`).run(Buffer.from(filter.bits));

    const keySets = keySetsOn(db);
    keySets.forget('seen', 1_000);
    expect([...keySets.has('seen', ['tail', 'run', 'other'], 1_000)].sort()).toEqual(['run', 'tail']);
  });

  it('drops every run on reset', () => {
    const keySets = keySetsOn(db);
    keySets.add('seen', ['a', 'b', 'c', 'd']);
    keySets.reset('seen');

    expect(tables()).toEqual(['rk_seen']);
    expect(keySets.has('seen', ['a', 'd'])).toEqual(new Set());
    keySets.add('seen', ['a', 'b', 'c']);
    expect(keySets.has('seen', ['a'])).toEqual(new Set(['a']));
  });
});
