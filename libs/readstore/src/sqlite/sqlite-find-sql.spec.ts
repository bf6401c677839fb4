import Database from 'better-sqlite3';
import type { FindQuery } from '../read-store.port';
import { findSql } from './sqlite-find-sql';
import { SqliteReadStore } from './sqlite-read-store';

const INDEXED = ['created_at', 'customer_id', 'email'];

describe('findSql query plans', () => {
  const db = new Database(':memory:');
  const plan = (query: FindQuery) => {
    const { sql, params } = findSql('invoices', query, INDEXED);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(' | ');
  };

  beforeAll(async () => {
    const store = new SqliteReadStore(db);
    await store.ensureCollection('invoices', [{ fields: ['created_at'] }, { fields: ['customer_id', 'created_at'] }, { fields: ['email'] }]);
    await store.commit(
      Array.from({ length: 500 }, (_, index) => ({
        op: 'upsert' as const,
        collection: 'invoices',
        doc: { id: `in_${index}`, created_at: `2026-01-01T00:00:${index}`, customer_id: `cus_${index % 20}`, email: `u${index}@x.io` },
        position: BigInt(index + 1),
      })),
    );
    db.exec('ANALYZE');
  });

  afterAll(() => db.close());

  it('seeks the sort index from the cursor, in both directions', () => {
    const after = { value: '2026-01-01T00:00:250', id: 'in_250' };

    expect(plan({ sort: { field: 'created_at', direction: 'desc' }, after, limit: 10 })).toMatch(
      /^SEARCH \S+ USING INDEX rm_invoices\(created_at\) \(key:created_at>\? AND key:created_at<\?\)$/,
    );
    expect(plan({ sort: { field: 'created_at', direction: 'asc' }, after, limit: 10 })).toMatch(/^SEARCH \S+ USING INDEX rm_invoices\(created_at\) \(key:created_at>\?\)$/);
  });

  it('seeks past the tombstones when only sorting', () => {
    expect(plan({ sort: { field: 'created_at', direction: 'asc' }, limit: 10 })).toMatch(/^SEARCH \S+ USING INDEX rm_invoices\(created_at\) \(key:created_at>\?\)$/);
  });

  it('uses a compound index for an equality filter plus the sort and cursor', () => {
    const query: FindQuery = {
      where: [{ field: 'customer_id', op: 'eq', value: 'cus_3' }],
      sort: { field: 'created_at', direction: 'desc' },
      after: { value: '2026-01-01T00:00:250', id: 'in_250' },
      limit: 10,
    };

    expect(plan(query)).toMatch(/^SEARCH \S+ USING INDEX rm_invoices\(customer_id,created_at\) \(key:customer_id=\? AND key:created_at>\? AND key:created_at<\?\)$/);
  });

  it('answers a prefix filter with an index range', () => {
    const query: FindQuery = { where: [{ field: 'email', op: 'starts', value: 'u1' }], sort: { field: 'email', direction: 'asc' }, limit: 10 };

    expect(plan(query)).toMatch(/^SEARCH \S+ USING INDEX rm_invoices\(email\) \(key:email>\? AND key:email<\?\)$/);
  });

  it('keeps to the sort index under a nin condition, which it checks row by row', () => {
    const query: FindQuery = { where: [{ field: 'email', op: 'nin', value: ['u1@x.io', 'u2@x.io'] }], sort: { field: 'created_at', direction: 'desc' }, limit: 10 };

    expect(plan(query)).toMatch(/^SEARCH \S+ USING INDEX rm_invoices\(created_at\) \(key:created_at>\?\)$/);
  });

  it('binds every value as a parameter', () => {
    const { sql, params } = findSql('invoices', {
      where: [{ field: 'email', op: 'eq', value: "x' OR '1'='1" }],
      sort: { field: 'created_at', direction: 'asc' },
      after: { value: null, id: 'in_1' },
      limit: 5,
    }, INDEXED);

    expect(sql).not.toContain("x' OR");
    expect(params).toEqual(["x' OR '1'='1", -Infinity, -Infinity, 'in_1', 6]);
  });
});
