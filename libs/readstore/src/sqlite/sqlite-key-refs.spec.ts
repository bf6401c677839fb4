import Database from 'better-sqlite3';
import { SqliteKeyRefs } from './sqlite-key-refs';
import { SqliteKeySets } from './sqlite-key-sets';
import { StatementCache } from './statement-cache';

describe('SqliteKeyRefs', () => {
  let db: Database.Database;
  let writer: SqliteKeySets;
  let reader: SqliteKeyRefs;

  beforeEach(() => {
    db = new Database(':memory:');
    writer = new SqliteKeySets(db, new StatementCache(db), 3);
    const statements = new StatementCache(db);
    reader = new SqliteKeyRefs(statements, new SqliteKeySets(db, statements, 3));
  });
  afterEach(() => db.close());

  it('reads refs from the tail and from each sealed run, on a connection that never wrote to the set', () => {
    expect(reader.refs('seen', ['a'])).toEqual(new Map());
    writer.add('seen', ['c', 'a', 'b'], 10, ['3', '1', '2']);
    writer.add('seen', ['d'], 20, ['4']);

    expect(db.prepare(`SELECT count(*) FROM rk_runs`).pluck().get()).toBe(1);
    expect(reader.refs('seen', ['a', 'd', 'x'])).toEqual(new Map([['a', '1'], ['d', '4']]));
    expect(reader.refs('seen', ['a', 'd'], 11)).toEqual(new Map([['d', '4']]));
  });

  it('lets go of a run the writer forgot, and reads the run sealed next under the same number afresh', () => {
    writer.add('seen', ['a', 'b', 'c'], 10, ['1', '2', '3']);
    expect(reader.refs('seen', ['a'])).toEqual(new Map([['a', '1']]));
    writer.add('seen', ['d'], 30, ['4']);
    writer.forget('seen', 11);
    expect(reader.refs('seen', ['a'])).toEqual(new Map());

    writer.add('seen', ['e', 'f'], 40, ['5', '6']);
    expect(db.prepare(`SELECT run, newest_at FROM rk_runs`).raw().all()).toEqual([[1, 40]]);
    expect(reader.refs('seen', ['a', 'd', 'e', 'f'])).toEqual(new Map([['d', '4'], ['e', '5'], ['f', '6']]));
  });
});
