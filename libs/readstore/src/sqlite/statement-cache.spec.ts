import Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';

describe('StatementCache', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());

  it('prepares a statement once per SQL text', () => {
    const cache = new StatementCache(db);

    expect(cache.get('SELECT 1')).toBe(cache.get('SELECT 1'));
    expect(cache.get('SELECT 1')).not.toBe(cache.get('SELECT 2'));
  });

  it('drops the least recently used statement beyond its capacity', () => {
    const cache = new StatementCache(db, 2);
    const first = cache.get('SELECT 1');
    const second = cache.get('SELECT 2');
    cache.get('SELECT 1');
    cache.get('SELECT 3');

    expect(cache.get('SELECT 1')).toBe(first);
    expect(cache.get('SELECT 2')).not.toBe(second);
  });
});
