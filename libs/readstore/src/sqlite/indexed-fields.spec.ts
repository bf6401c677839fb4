import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { After, Condition, Doc, FindQuery, SortSpec, Write } from '../read-store.port';
import { findSql } from './sqlite-find-sql';
import { SqliteReadStore } from './sqlite-read-store';

/** Indexed fields are read from columns, the others from the JSON: both must give the same answers. */
describe('SqliteReadStore indexed fields', () => {
  let db: Database.Database;

  beforeEach(() => {
    db = new Database(':memory:');
  });

  afterEach(() => db.close());

  it('answer every query as the same documents without indexes do', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(change(), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 8 }), fc.array(query(), { minLength: 1, maxLength: 5 }), async (changes, batch, queries) => {
        const store = new SqliteReadStore(db);
        const [plain, indexed] = [`plain_${run}`, `indexed_${run++}`];
        await store.ensureCollection(indexed, [{ fields: ['v'] }, { fields: ['g', 'meta.v'] }]);
        for (const collection of [plain, indexed]) {
          const writes = changes.map((each, index) => toWrite(collection, each, BigInt(index + 1)));
          for (let start = 0; start < writes.length; start += batch) await store.commit(writes.slice(start, start + batch));
        }

        for (const { where, sort, limit } of queries) {
          expect(await pages(store, indexed, where, sort, limit)).toEqual(await pages(store, plain, where, sort, limit));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('follow a value that changes its type but not its key', async () => {
    const store = new SqliteReadStore(db);
    await store.ensureCollection('docs', [{ fields: ['v'] }]);
    await store.commit([upsert('docs', { id: 'a', v: true }, 1n), upsert('docs', { id: 'a', v: 1 }, 2n)]);

    expect(await ids(store, 'docs', { where: [{ field: 'v', op: 'eq', value: 1 }], limit: 10 })).toEqual(['a']);
    expect(await ids(store, 'docs', { where: [{ field: 'v', op: 'eq', value: true }], limit: 10 })).toEqual([]);
  });

  it('indexes a field of a collection that already holds documents', async () => {
    const store = new SqliteReadStore(db);
    await store.commit([upsert('docs', { id: 'a', n: 2 }, 1n), upsert('docs', { id: 'b', n: 'two' }, 2n), upsert('docs', { id: 'c' }, 3n), remove('docs', 'd', 4n)]);

    await store.ensureCollection('docs', [{ fields: ['n'] }]);
    await store.ensureCollection('docs', [{ fields: ['n'] }]);

    expect(await ids(store, 'docs', { where: [{ field: 'n', op: 'eq', value: 2 }], limit: 10 })).toEqual(['a']);
    expect(await ids(store, 'docs', { where: [{ field: 'n', op: 'eq', value: null }], limit: 10 })).toEqual(['c']);
    expect(await ids(store, 'docs', { sort: { field: 'n', direction: 'desc' }, limit: 10 })).toEqual(['b', 'a', 'c']);
    expect(plan('docs', { where: [{ field: 'n', op: 'eq', value: 2 }], limit: 10 }, ['n'])).toMatch(/USING INDEX rm_docs\(n\) \(key:n=\?\)/);
  });

  it('fill the columns that another store added to a table they write', async () => {
    const writer = new SqliteReadStore(db);
    await writer.commit([upsert('docs', { id: 'a', n: 1 }, 1n)]);

    const other = new SqliteReadStore(db);
    await other.ensureCollection('docs', [{ fields: ['n'] }]);
    await writer.commit([upsert('docs', { id: 'a', n: 2 }, 2n), upsert('docs', { id: 'b', n: 2 }, 3n)]);

    expect(await ids(other, 'docs', { where: [{ field: 'n', op: 'eq', value: 2 }], limit: 10 })).toEqual(['a', 'b']);
  });

  it('key field names by case, as JSON does', async () => {
    const store = new SqliteReadStore(db);
    await store.ensureCollection('docs', [{ fields: ['Name'] }, { fields: ['name'] }]);
    await store.commit([upsert('docs', { id: 'a', Name: 'x', name: 'y' }, 1n)]);

    expect(await ids(store, 'docs', { where: [{ field: 'Name', op: 'eq', value: 'x' }], limit: 10 })).toEqual(['a']);
    expect(await ids(store, 'docs', { where: [{ field: 'name', op: 'eq', value: 'x' }], limit: 10 })).toEqual([]);
  });

  function plan(collection: string, query: FindQuery, indexed: readonly string[]): string {
    const { sql, params } = findSql(collection, query, indexed);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(' | ');
  }
});

async function ids(store: SqliteReadStore, collection: string, query: FindQuery): Promise<string[]> {
  return (await store.find(collection, query)).items.map((doc) => doc.id);
}

/** Every page, following the cursor for as long as the last sort value can be one. */
async function pages(store: SqliteReadStore, collection: string, where: readonly Condition[], sort: SortSpec, limit: number): Promise<Doc[][]> {
  const seen: Doc[][] = [];
  let after: After | undefined;
  for (;;) {
    const page = await store.find(collection, { where, sort, after, limit });
    seen.push(page.items);
    const last = page.items[page.items.length - 1];
    const value = last && sort.field !== 'id' ? (valueAt(last, sort.field) ?? null) : null;
    if (!page.hasMore || (value !== null && typeof value === 'object')) return seen;
    after = { value: value as After['value'], id: last.id };
  }
}

function valueAt(doc: Doc, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), doc);
}

const MISSING = Symbol('missing');

/** Values of every JSON type, mixed within one field, with duplicates. */
function value() {
  return fc.oneof(
    fc.constantFrom(-1, 0, 1, 2.5, 10),
    fc.constantFrom('', 'a', 'ab', 'B', 'é', '1'),
    fc.boolean(),
    fc.constant(null),
    fc.constant(MISSING),
    fc.constantFrom({ x: 1 }, ['a'], {}),
  );
}

type Change = { id: string } & ({ kind: 'upsert'; g: string; v: unknown; metaV: unknown } | { kind: 'delete' });

function change(): fc.Arbitrary<Change> {
  const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('upsert' as const), id, g: fc.constantFrom('x', 'y'), v: value(), metaV: value() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
  );
}

function toWrite(collection: string, each: Change, position: bigint): Write {
  if (each.kind === 'delete') return remove(collection, each.id, position);
  const doc: Doc = { id: each.id, g: each.g };
  if (each.v !== MISSING) doc.v = each.v;
  if (each.metaV !== MISSING) doc.meta = { v: each.metaV };
  return upsert(collection, doc, position);
}

function query() {
  const field = fc.constantFrom('v', 'meta.v', 'g');
  const scalar = fc.oneof(fc.constantFrom(-1, 0, 1, 2.5, 10), fc.constantFrom('', 'a', 'B', 'x', '1'), fc.boolean());
  const condition: fc.Arbitrary<Condition> = fc.oneof(
    fc.record({ field, op: fc.constantFrom('eq' as const, 'gte' as const, 'gt' as const, 'lte' as const, 'lt' as const), value: scalar }),
    fc.record({ field, op: fc.constant('eq' as const), value: fc.constant(null) }),
    fc.record({ field, op: fc.constant('in' as const), value: fc.array(scalar, { maxLength: 3 }) }),
    fc.record({ field, op: fc.constant('starts' as const), value: fc.constantFrom('', 'a', 'é') }),
  );
  return fc.record({
    where: fc.array(condition, { maxLength: 2 }),
    sort: fc.record({ field: fc.constantFrom('v', 'meta.v', 'id'), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
    limit: fc.integer({ min: 1, max: 4 }),
  });
}

function upsert(collection: string, doc: Doc, position: bigint): Write {
  return { op: 'upsert', collection, doc, position };
}

function remove(collection: string, id: string, position: bigint): Write {
  return { op: 'delete', collection, id, position };
}
