import fc from 'fast-check';
import type { After, Condition, Doc, FindQuery, FindResult, ReadStore, SortSpec, Write } from '../read-store.port';

export interface ReadStoreUnderTest {
  store: ReadStore;
  /** Closes the store and removes whatever it created. */
  cleanup(): Promise<void>;
}

const PROPERTY_RUNS = 30;
const PROPERTY_TIMEOUT_MS = 60_000;

/**
 * The behaviour every ReadStore adapter shares. `makeStore` gives an empty store for each test.
 * Semantics follow MongoDB's: values keep their JSON type in comparisons, null and missing values
 * sort first, text compares by code point.
 */
export function describeReadStoreContract(name: string, makeStore: () => Promise<ReadStoreUnderTest>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let subject: ReadStoreUnderTest | undefined;
    let store: ReadStore;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });

    afterEach(async () => {
      await subject?.cleanup();
      subject = undefined;
    });

    async function seed(collection: string, docs: readonly Doc[], indexes: readonly (readonly string[])[] = []): Promise<void> {
      await store.ensureCollection(
        collection,
        indexes.map((fields) => ({ fields })),
      );
      await store.commit(docs.map((doc, index) => upsert(collection, doc, BigInt(index + 1))));
    }

    async function findIds(collection: string, query: Partial<FindQuery>): Promise<string[]> {
      const result = await store.find(collection, { limit: 100, ...query });
      return result.items.map((doc) => doc.id);
    }

    async function pageThrough(collection: string, sort: SortSpec, pageSize: number, where?: readonly Condition[]): Promise<string[]> {
      const seen: string[] = [];
      let after: After | undefined;
      for (;;) {
        if (seen.length > 1000) throw new Error('pagination does not end');
        const page = await store.find(collection, { where, sort, after, limit: pageSize });
        expect(page.items.length).toBeLessThanOrEqual(pageSize);
        if (page.hasMore) expect(page.items).toHaveLength(pageSize);
        seen.push(...page.items.map((doc) => doc.id));
        if (!page.hasMore) return seen;
        after = cursorAfter(page.items[page.items.length - 1], sort);
      }
    }

    describe('documents', () => {
      it('returns what was written, for every JSON type', async () => {
        const doc: Doc = {
          id: 'cus_01',
          name: 'Zoë «Quote" \\ back\nslash»',
          unicode: { 'ключ': '日本語', emoji: '👍🏽', astral: '\u{10FFFF}' },
          numbers: [0, -1.5, 42, 2 ** 53, 1e21, 5e-324, -1e-7],
          flags: { yes: true, no: false },
          nothing: null,
          empty: { object: {}, array: [] },
          nested: { deep: { deeper: [{ a: 1, list: [2, { b: [3] }] }, 'x', null] } },
        };
        await seed('docs', [doc]);

        expect(await store.get('docs', 'cus_01')).toEqual(doc);
        expect((await store.find('docs', { limit: 1 })).items).toEqual([doc]);
        expect(await store.all('docs')).toEqual([doc]);
      });

      it('gives back user-keyed fields (metadata, quantities, properties) without a prototype, at any depth, their keys intact', async () => {
        const keys = JSON.parse('{"__proto__": "p", "constructor": "c", "toString": "t"}') as Record<string, string>;
        await seed('docs', [{ id: 'a', metadata: keys, lines: [{ quantities: keys, properties: keys }], settings: { plain: 'x' } }]);

        const docs = [await store.get<Doc>('docs', 'a'), (await store.find<Doc>('docs', { limit: 1 })).items[0], (await store.all<Doc>('docs'))[0], (await store.getMany<Doc>('docs', ['a'])).get('a')];
        for (const doc of docs) {
          const line = (doc!.lines as Doc[])[0];
          for (const keyed of [doc!.metadata, line.quantities, line.properties] as Record<string, string>[]) {
            expect(Object.getPrototypeOf(keyed)).toBeNull();
            expect(Object.keys(keyed).sort()).toEqual(['__proto__', 'constructor', 'toString']);
            expect(keyed['__proto__']).toBe('p');
          }
          expect(Object.getPrototypeOf(doc!.settings)).toBe(Object.prototype);
        }
      });

      it('replaces the whole document on upsert, so removed fields disappear', async () => {
        await store.commit([upsert('docs', { id: 'a', kept: 1, dropped: 2, nested: { x: 1, y: 2 } }, 1n)]);
        await store.commit([upsert('docs', { id: 'a', kept: 1, nested: { x: 1 } }, 2n)]);

        expect(await store.get('docs', 'a')).toEqual({ id: 'a', kept: 1, nested: { x: 1 } });
      });

      it('answers nothing for a missing id or an unknown collection', async () => {
        await seed('docs', [{ id: 'a' }]);

        expect(await store.get('docs', 'b')).toBeUndefined();
        expect(await store.get('unknown', 'a')).toBeUndefined();
        expect(await store.find('unknown', { limit: 5 })).toEqual({ items: [], hasMore: false });
        expect(await store.all('unknown')).toEqual([]);
      });

      it('reads many documents at once: those that exist, by id, tombstones and other collections left out', async () => {
        await seed('docs', [{ id: 'a', n: 1 }, { id: 'b', n: 2 }, { id: '["x","y"]', n: 3 }, { id: 'gone', n: 4 }]);
        await store.commit([upsert('other', { id: 'c', n: 5 }, 10n), remove('docs', 'gone', 11n)]);

        const found = await store.getMany('docs', ['b', 'missing', '["x","y"]', 'gone', 'c', 'a', 'a']);

        expect([...found.entries()].sort()).toEqual([
          ['["x","y"]', { id: '["x","y"]', n: 3 }],
          ['a', { id: 'a', n: 1 }],
          ['b', { id: 'b', n: 2 }],
        ]);
        expect(await store.getMany('docs', [])).toEqual(new Map());
        expect(await store.getMany('unknown', ['a'])).toEqual(new Map());
      });

      it('keeps collections apart', async () => {
        await store.commit([upsert('left', { id: 'a', side: 'left' }, 1n), upsert('right', { id: 'a', side: 'right' }, 2n)]);

        expect(await store.get('left', 'a')).toEqual({ id: 'a', side: 'left' });
        expect(await store.get('right', 'a')).toEqual({ id: 'a', side: 'right' });
      });

      it('lists all documents in id order (code point order)', async () => {
        await seed('docs', ['😀', 'ﬀ', 'é', 'a', 'B', 'a1'].map((id) => ({ id })));

        expect((await store.all('docs')).map((doc) => doc.id)).toEqual(['B', 'a', 'a1', 'é', 'ﬀ', '😀']);
      });

      it('creates indexes idempotently without changing results', async () => {
        await seed('docs', [{ id: 'b', n: 1 }, { id: 'a', n: 1 }], [['n'], ['n', 'id'], ['id'], []]);
        await store.ensureCollection('docs', [{ fields: ['n'] }, { fields: ['n', 'id'] }]);

        expect(await findIds('docs', { where: [{ field: 'n', op: 'eq', value: 1 }], sort: { field: 'n', direction: 'desc' } })).toEqual(['b', 'a']);
      });
    });

    describe('key sets', () => {
      const addKey = (set: string, ...keys: string[]): Write => ({ op: 'add_keys', collection: set, keys });

      it('holds the keys added, once each, across commits, beside documents of other collections', async () => {
        await store.ensureKeySet('seen');
        await store.ensureKeySet('seen');
        await store.commit([addKey('seen', 'a', '["sub_1","calls","x"]'), addKey('seen', 'a'), upsert('docs', { id: 'b' }, 1n)]);
        await store.commit([addKey('seen', 'a', 'c', 'c')], { name: 'p', position: 2n });

        expect([...(await store.hasKeys('seen', ['a', 'b', 'c', '["sub_1","calls","x"]', 'missing', 'a']))].sort()).toEqual(['["sub_1","calls","x"]', 'a', 'c']);
        expect(await store.hasKeys('seen', [])).toEqual(new Set());
        expect(await store.getCheckpoint('p')).toBe(2n);
        expect(await store.get('docs', 'b')).toEqual({ id: 'b' });
      });

      it('holds a key added at a time for a reader who asks from then or before, and by the latest time it was added at', async () => {
        await store.ensureKeySet('seen');
        const addAt = (at: number, ...keys: string[]): Write => ({ op: 'add_keys', collection: 'seen', keys, at });
        await store.commit([addAt(100, 'a', 'b'), addKey('seen', 'forever')]);
        await store.commit([addAt(300, 'a'), addAt(50, 'b')]);

        expect([...(await store.hasKeys('seen', ['a', 'b', 'forever', 'x'], 100))].sort()).toEqual(['a', 'b', 'forever']);
        expect([...(await store.hasKeys('seen', ['a', 'b', 'forever'], 101))].sort()).toEqual(['a', 'forever']);
        expect([...(await store.hasKeys('seen', ['a', 'b', 'forever']))].sort()).toEqual(['a', 'b', 'forever']);
      });

      it('keeps a key added for good for good, even when it is added at a time later', async () => {
        await store.ensureKeySet('seen');
        await store.commit([addKey('seen', 'k')]);
        await store.commit([{ op: 'add_keys', collection: 'seen', keys: ['k'], at: 10 }, { op: 'forget_keys', collection: 'seen', before: 1_000 }]);

        expect(await store.hasKeys('seen', ['k'], 5_000)).toEqual(new Set(['k']));
      });

      it('answers alike, before and after a forget_keys, every reader who asks from its time or later', async () => {
        await store.ensureKeySet('seen');
        await store.commit([{ op: 'add_keys', collection: 'seen', keys: ['old'], at: 10 }, { op: 'add_keys', collection: 'seen', keys: ['new'], at: 90 }]);
        const before = await Promise.all([50, 90, 91].map((notBefore) => store.hasKeys('seen', ['old', 'new'], notBefore)));
        await store.commit([{ op: 'forget_keys', collection: 'seen', before: 50 }], { name: 'p', position: 1n });

        expect(await Promise.all([50, 90, 91].map((notBefore) => store.hasKeys('seen', ['old', 'new'], notBefore)))).toEqual(before);
        expect(before).toEqual([new Set(['new']), new Set(['new']), new Set()]);
      });

      it('answers the ref each key was last added with, at its latest time (none for a key added without, or at a later time without)', async () => {
        await store.ensureKeySet('seen');
        const addAt = (at: number, keys: string[], refs?: string[]): Write => ({ op: 'add_keys', collection: 'seen', keys, at, ...(refs && { refs }) });
        await store.commit([addAt(10, ['b', 'a'], ['1/1', '1/0']), addAt(10, ['plain'])]);
        await store.commit([addAt(20, ['a'], ['2/0']), addAt(5, ['b'], ['3/0']), addAt(10, ['b'], ['4/0']), addKey('seen', 'forever')]);

        expect(await store.keyRefs('seen', ['a', 'b', 'plain', 'forever', 'x'])).toEqual(new Map([['a', '2/0'], ['b', '1/1'], ['plain', null], ['forever', null]]));
        expect(await store.keyRefs('seen', ['a', 'b', 'forever'], 11)).toEqual(new Map([['a', '2/0'], ['forever', null]]));
        await store.commit([addAt(30, ['a'])]);
        expect(await store.keyRefs('seen', ['a'])).toEqual(new Map([['a', null]]));
        expect(await store.keyRefs('seen', [])).toEqual(new Map());
        expect(await store.keyRefs('unused', ['a'])).toEqual(new Map());
      });

      it('keeps key sets apart', async () => {
        await store.ensureKeySet('left');
        await store.ensureKeySet('right');
        await store.commit([addKey('left', 'a')]);

        expect(await store.hasKeys('right', ['a'])).toEqual(new Set());
        expect(await store.hasKeys('left', ['a'])).toEqual(new Set(['a']));
      });

      it('empties a key set on reset', async () => {
        await store.ensureKeySet('seen');
        await store.commit([addKey('seen', 'a'), upsert('docs', { id: 'd' }, 1n)], { name: 'p', position: 1n });

        await store.reset(['seen', 'docs'], ['p']);

        expect(await store.hasKeys('seen', ['a'])).toEqual(new Set());
        expect(await store.get('docs', 'd')).toBeUndefined();
        expect(await store.getCheckpoint('p')).toBeUndefined();
      });
    });

    describe('filters', () => {
      const people: Doc[] = [
        { id: 'p01', email: 'ann@x.io', n: 9, code: 5, flag: true, country: 'DE', addr: { country: 'DE', zip: '10115' } },
        { id: 'p02', email: 'Ann@x.io', n: 10, code: '5', flag: false, country: 'FR', addr: { country: 'FR', zip: '75001' } },
        { id: 'p03', email: 'an_n@x.io', n: 100, code: 1, flag: 1, country: 'DE', addr: { country: 'AT' } },
        { id: 'p04', email: 'anxn@x.io', n: 2.5, code: 'x', flag: null, country: null, addr: null },
        { id: 'p05', email: '50%off@x.io', n: -3, code: true, country: 'US', addr: { country: 'US', zip: '10001' } },
        { id: 'p06', email: '50xoff@x.io', n: '11', code: null, flag: 'true', country: 'us' },
        { id: 'p07', email: 'über@x.io', n: 0, country: 'DE', addr: { country: 'DE', zip: 10115 } },
        { id: 'p08', email: '\u{10FFFF}a@x.io', n: 1e21, country: 'FR' },
        { id: 'p09', email: '\u{10FFFF}', n: 50, country: { code: 'DE' }, addr: { country: { code: 'DE' } } },
      ];
      const where = (...conditions: Condition[]) => findIds('people', { where: conditions });

      beforeEach(() => seed('people', people, [['country', 'n'], ['email'], ['addr.country'], ['n']]));

      it('eq matches the value with its JSON type', async () => {
        expect(await where({ field: 'country', op: 'eq', value: 'DE' })).toEqual(['p01', 'p03', 'p07']);
        expect(await where({ field: 'code', op: 'eq', value: 5 })).toEqual(['p01']);
        expect(await where({ field: 'code', op: 'eq', value: '5' })).toEqual(['p02']);
        expect(await where({ field: 'code', op: 'eq', value: 1 })).toEqual(['p03']);
        expect(await where({ field: 'code', op: 'eq', value: true })).toEqual(['p05']);
        expect(await where({ field: 'flag', op: 'eq', value: true })).toEqual(['p01']);
        expect(await where({ field: 'flag', op: 'eq', value: false })).toEqual(['p02']);
        expect(await where({ field: 'flag', op: 'eq', value: 1 })).toEqual(['p03']);
      });

      it('eq null matches null and missing values', async () => {
        expect(await where({ field: 'flag', op: 'eq', value: null })).toEqual(['p04', 'p05', 'p07', 'p08', 'p09']);
        expect(await where({ field: 'country', op: 'eq', value: null })).toEqual(['p04']);
        expect(await where({ field: 'addr.country', op: 'eq', value: null })).toEqual(['p04', 'p06', 'p08']);
      });

      it('compares numbers as numbers and strings as strings', async () => {
        expect(await where({ field: 'n', op: 'gt', value: 9 })).toEqual(['p02', 'p03', 'p08', 'p09']);
        expect(await where({ field: 'n', op: 'gte', value: 9 })).toEqual(['p01', 'p02', 'p03', 'p08', 'p09']);
        expect(await where({ field: 'n', op: 'lt', value: 1 })).toEqual(['p05', 'p07']);
        expect(await where({ field: 'n', op: 'lte', value: 0 })).toEqual(['p05', 'p07']);
        expect(await where({ field: 'n', op: 'lt', value: 0 })).toEqual(['p05']);
        expect(await where({ field: 'n', op: 'gt', value: '1' })).toEqual(['p06']);
        expect(await where({ field: 'n', op: 'lt', value: '2' })).toEqual(['p06']);
        expect(await where({ field: 'country', op: 'gte', value: 'US' })).toEqual(['p05', 'p06']);
        expect(await where({ field: 'flag', op: 'gt', value: false })).toEqual(['p01']);
      });

      it('reaches into nested objects with dotted paths', async () => {
        expect(await where({ field: 'addr.country', op: 'eq', value: 'DE' })).toEqual(['p01', 'p07']);
        expect(await where({ field: 'addr.zip', op: 'eq', value: '10115' })).toEqual(['p01']);
        expect(await where({ field: 'addr.zip', op: 'eq', value: 10115 })).toEqual(['p07']);
        expect(await where({ field: 'addr.zip', op: 'gte', value: '2' })).toEqual(['p02']);
        expect(await where({ field: 'addr.country', op: 'in', value: ['AT', 'US'] })).toEqual(['p03', 'p05']);
      });

      it('in matches any of the values, each with its JSON type', async () => {
        expect(await where({ field: 'country', op: 'in', value: ['DE', 'FR'] })).toEqual(['p01', 'p02', 'p03', 'p07', 'p08']);
        expect(await where({ field: 'code', op: 'in', value: [5, 'x'] })).toEqual(['p01', 'p04']);
        expect(await where({ field: 'code', op: 'in', value: [true] })).toEqual(['p05']);
        expect(await where({ field: 'flag', op: 'in', value: [true, 1] })).toEqual(['p01', 'p03']);
        expect(await where({ field: 'country', op: 'in', value: [] })).toEqual([]);
      });

      it('nin matches none of the values, each with its JSON type, and documents without the field', async () => {
        expect(await where({ field: 'country', op: 'nin', value: ['DE', 'FR'] })).toEqual(['p04', 'p05', 'p06', 'p09']);
        expect(await where({ field: 'code', op: 'nin', value: [5, 'x'] })).toEqual(['p02', 'p03', 'p05', 'p06', 'p07', 'p08', 'p09']);
        expect(await where({ field: 'email', op: 'nin', value: [] })).toHaveLength(people.length);
        expect(await where({ field: 'country', op: 'eq', value: 'DE' }, { field: 'email', op: 'nin', value: ['ann@x.io'] })).toEqual(['p03', 'p07']);
      });

      it('starts is a case-sensitive prefix match with no wildcards', async () => {
        expect(await where({ field: 'email', op: 'starts', value: 'ann' })).toEqual(['p01']);
        expect(await where({ field: 'email', op: 'starts', value: 'Ann' })).toEqual(['p02']);
        expect(await where({ field: 'email', op: 'starts', value: 'an' })).toEqual(['p01', 'p03', 'p04']);
        expect(await where({ field: 'email', op: 'starts', value: 'an_' })).toEqual(['p03']);
        expect(await where({ field: 'email', op: 'starts', value: 'an.n' })).toEqual([]);
        expect(await where({ field: 'email', op: 'starts', value: '50%' })).toEqual(['p05']);
        expect(await where({ field: 'email', op: 'starts', value: '50' })).toEqual(['p05', 'p06']);
        expect(await where({ field: 'email', op: 'starts', value: '50%off@x.io' })).toEqual(['p05']);
        expect(await where({ field: 'email', op: 'starts', value: 'üb' })).toEqual(['p07']);
        expect(await where({ field: 'email', op: 'starts', value: '\u{10FFFF}' })).toEqual(['p08', 'p09']);
        expect(await where({ field: 'email', op: 'starts', value: '' })).toHaveLength(people.length);
        expect(await where({ field: 'n', op: 'starts', value: '1' })).toEqual(['p06']);
      });

      it('combines conditions with AND, also on one field', async () => {
        expect(await where({ field: 'country', op: 'eq', value: 'DE' }, { field: 'n', op: 'gte', value: 10 })).toEqual(['p03']);
        expect(await where({ field: 'country', op: 'eq', value: 'DE' }, { field: 'email', op: 'starts', value: 'an' })).toEqual(['p01', 'p03']);
        expect(await where({ field: 'n', op: 'gte', value: 5 }, { field: 'n', op: 'lt', value: 100 })).toEqual(['p01', 'p02', 'p09']);
        expect(await where({ field: 'n', op: 'gte', value: 5 }, { field: 'n', op: 'lt', value: 5 })).toEqual([]);
      });

      it('filters on id', async () => {
        expect(await where({ field: 'id', op: 'eq', value: 'p03' })).toEqual(['p03']);
        expect(await where({ field: 'id', op: 'in', value: ['p05', 'p02', 'zz'] })).toEqual(['p02', 'p05']);
        expect(await where({ field: 'id', op: 'gt', value: 'p07' })).toEqual(['p08', 'p09']);
        expect(await where({ field: 'id', op: 'starts', value: 'p0' })).toHaveLength(people.length);
      });

      it('filters and sorts together', async () => {
        const sorted = await findIds('people', { where: [{ field: 'country', op: 'eq', value: 'DE' }], sort: { field: 'n', direction: 'desc' } });

        expect(sorted).toEqual(['p03', 'p01', 'p07']);
      });
    });

    describe('sorting', () => {
      const items: Doc[] = [
        { id: 'b', rank: 2, name: 'beta', nested: { at: '2026-01-02' } },
        { id: 'a', rank: 2, name: 'Alpha', nested: { at: '2026-01-01' } },
        { id: 'c', rank: 10, name: 'alpha' },
        { id: 'd', rank: null, name: 'Émile', nested: { at: null } },
        { id: 'e', name: 'zeta', nested: { at: '2026-01-03' } },
        { id: 'f', rank: -1, name: 'éclair' },
        { id: 'g', rank: 9, name: '😀' },
        { id: 'h', rank: 2.5, name: 'ﬀ' },
      ];
      const sorted = (field: string, direction: 'asc' | 'desc') => findIds('items', { sort: { field, direction } });

      beforeEach(() => seed('items', items, [['rank'], ['name']]));

      it('orders numbers numerically, nulls and missing values first, ties by id in the same direction', async () => {
        expect(await sorted('rank', 'asc')).toEqual(['d', 'e', 'f', 'a', 'b', 'h', 'g', 'c']);
        expect(await sorted('rank', 'desc')).toEqual(['c', 'g', 'h', 'b', 'a', 'f', 'e', 'd']);
      });

      it('orders text by code point', async () => {
        expect(await sorted('name', 'asc')).toEqual(['a', 'c', 'b', 'e', 'd', 'f', 'h', 'g']);
        expect(await sorted('name', 'desc')).toEqual(['g', 'h', 'f', 'd', 'e', 'b', 'c', 'a']);
      });

      it('sorts on nested fields', async () => {
        expect(await sorted('nested.at', 'asc')).toEqual(['c', 'd', 'f', 'g', 'h', 'a', 'b', 'e']);
      });

      it('sorts by id by default, and by id in either direction', async () => {
        expect(await findIds('items', {})).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
        expect(await sorted('id', 'desc')).toEqual(['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a']);
      });
    });

    describe('keyset pagination', () => {
      it(
        'visits every document exactly once and in order, across nulls and duplicate values',
        async () => {
          let run = 0;
          await fc.assert(
            fc.asyncProperty(pagingCase(), async ({ field, direction, pageSize, docs, onlyGroup }) => {
              const collection = `paging_${run++}`;
              const sort: SortSpec = { field, direction };
              const where: Condition[] | undefined = onlyGroup ? [{ field: 'group', op: 'eq', value: onlyGroup }] : undefined;
              await seed(collection, docs, [[field], ['group', field]]);

              const expected = docs
                .filter((doc) => !onlyGroup || doc.group === onlyGroup)
                .sort((a, b) => compareDocs(a, b, sort))
                .map((doc) => doc.id);
              expect(await pageThrough(collection, sort, pageSize, where)).toEqual(expected);
            }),
            { numRuns: PROPERTY_RUNS },
          );
        },
        PROPERTY_TIMEOUT_MS,
      );

      it('reports hasMore only when another document follows', async () => {
        await seed('docs', [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);

        expect(await store.find('docs', { limit: 2 })).toMatchObject({ hasMore: true });
        expect(await store.find('docs', { limit: 3 })).toMatchObject({ hasMore: false });
        expect(await store.find('docs', { limit: 2, after: { value: 'b', id: 'b' } })).toEqual({ items: [{ id: 'c' }], hasMore: false });
      });

      it('shows documents inserted after the cursor and skips deleted ones', async () => {
        const docs = Array.from({ length: 10 }, (_, index) => ({ id: `d${String(index + 1).padStart(2, '0')}`, n: index + 1 }));
        await seed('feed', docs, [['n']]);
        const sort: SortSpec = { field: 'n', direction: 'asc' };
        const first = await store.find('feed', { sort, limit: 3 });
        expect(first.items.map((doc) => doc.id)).toEqual(['d01', 'd02', 'd03']);

        await store.commit([
          upsert('feed', { id: 'd11', n: 5.5 }, 20n),
          upsert('feed', { id: 'd00', n: 0 }, 21n),
          remove('feed', 'd05', 22n),
          remove('feed', 'd03', 23n),
        ]);
        const rest: string[] = [];
        let after: After | undefined = cursorAfter(first.items[2], sort);
        while (after) {
          const page: FindResult<Doc> = await store.find('feed', { sort, after, limit: 3 });
          rest.push(...page.items.map((doc) => doc.id));
          after = page.hasMore ? cursorAfter(page.items[page.items.length - 1], sort) : undefined;
        }

        expect(rest).toEqual(['d04', 'd11', 'd06', 'd07', 'd08', 'd09', 'd10']);
      });
    });

    describe('position guard', () => {
      it('applies a write only over an older position', async () => {
        await store.commit([upsert('docs', { id: 'x', v: 1 }, 5n)]);
        await store.commit([upsert('docs', { id: 'x', v: 2 }, 3n)]);
        await store.commit([upsert('docs', { id: 'x', v: 3 }, 5n)]);
        await store.commit([remove('docs', 'x', 4n)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x', v: 1 });

        await store.commit([upsert('docs', { id: 'x', v: 4 }, 6n)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x', v: 4 });
      });

      it('compares positions as numbers, also beyond 64 bits', async () => {
        const twoTo64 = 2n ** 64n;
        await store.commit([upsert('docs', { id: 'x', v: 9 }, 9n)]);
        await store.commit([upsert('docs', { id: 'x', v: 10 }, 10n)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x', v: 10 });

        await store.commit([upsert('docs', { id: 'x', v: 'above' }, twoTo64 + 1n)]);
        await store.commit([upsert('docs', { id: 'x', v: 'below' }, twoTo64)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x', v: 'above' });

        await store.commit([upsert('docs', { id: 'x', v: 'far' }, 2n ** 100n)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x', v: 'far' });
      });

      it('applies the writes of one commit in order', async () => {
        await store.commit([
          upsert('docs', { id: 'x', v: 1 }, 1n),
          upsert('other', { id: 'x', v: 'other' }, 2n),
          upsert('docs', { id: 'x', v: 2 }, 3n),
          upsert('docs', { id: 'y', v: 1 }, 4n),
          remove('docs', 'y', 5n),
        ]);

        expect(await store.all('docs')).toEqual([{ id: 'x', v: 2 }]);
        expect(await store.all('other')).toEqual([{ id: 'x', v: 'other' }]);
      });

      it('goes on past writes that were already applied within one commit', async () => {
        await store.commit([upsert('docs', { id: 'b', v: 'new' }, 10n)]);
        await store.commit([upsert('docs', { id: 'a', v: 1 }, 1n), upsert('docs', { id: 'b', v: 'old' }, 2n), upsert('docs', { id: 'c', v: 1 }, 3n)]);

        expect(await store.all('docs')).toEqual([
          { id: 'a', v: 1 },
          { id: 'b', v: 'new' },
          { id: 'c', v: 1 },
        ]);
      });

      it(
        'ends in the state of the newest write per document, however often and in whatever order writes arrive',
        async () => {
          let run = 0;
          await fc.assert(
            fc.asyncProperty(writeSequence(), fc.integer({ min: 1, max: 4 }), async ({ ops, reordered }, batchSize) => {
              const collection = `replay_${run++}`;
              const write = (op: Op) => toWrite(collection, op);
              const writes = ops.map(write);
              const commitAll = async (sequence: readonly Write[]) => {
                for (let start = 0; start < sequence.length; start += batchSize) {
                  await store.commit(sequence.slice(start, start + batchSize));
                }
              };
              const expected = newestPerId(writes);

              await commitAll(writes);
              expect(await store.all(collection)).toEqual(expected);
              await commitAll(writes);
              expect(await store.all(collection)).toEqual(expected);
              await commitAll(reordered.map(write));
              expect(await store.all(collection)).toEqual(expected);
            }),
            { numRuns: PROPERTY_RUNS },
          );
        },
        PROPERTY_TIMEOUT_MS,
      );
    });

    describe('tombstones', () => {
      it('hides a deleted document from get, find and all, and keeps its position', async () => {
        await seed('docs', [{ id: 'a', n: 1 }, { id: 'b', n: 1 }, { id: 'c', n: 1 }], [['n']]);
        await store.commit([remove('docs', 'b', 10n)]);

        expect(await store.get('docs', 'b')).toBeUndefined();
        expect(await store.find('docs', { where: [{ field: 'n', op: 'eq', value: 1 }], sort: { field: 'n', direction: 'asc' }, limit: 2 })).toEqual({
          items: [
            { id: 'a', n: 1 },
            { id: 'c', n: 1 },
          ],
          hasMore: false,
        });
        expect((await store.all('docs')).map((doc) => doc.id)).toEqual(['a', 'c']);

        await store.commit([upsert('docs', { id: 'b', n: 2 }, 10n)]);
        expect(await store.get('docs', 'b')).toBeUndefined();
        await store.commit([upsert('docs', { id: 'b', n: 3 }, 11n)]);
        expect(await store.get('docs', 'b')).toEqual({ id: 'b', n: 3 });
      });

      it('guards a document that was deleted before it was ever written', async () => {
        await store.commit([remove('docs', 'x', 5n)]);
        await store.commit([upsert('docs', { id: 'x' }, 4n)]);
        expect(await store.get('docs', 'x')).toBeUndefined();

        await store.commit([upsert('docs', { id: 'x' }, 6n)]);
        expect(await store.get('docs', 'x')).toEqual({ id: 'x' });
      });
    });

    describe('checkpoints', () => {
      it('are set with a commit and read back', async () => {
        expect(await store.getCheckpoint('customers')).toBeUndefined();

        await store.commit([upsert('docs', { id: 'a' }, 7n)], { name: 'customers', position: 7n });
        expect(await store.getCheckpoint('customers')).toBe(7n);

        await store.commit([], { name: 'customers', position: 2n ** 64n + 3n });
        expect(await store.getCheckpoint('customers')).toBe(2n ** 64n + 3n);
        expect(await store.getCheckpoint('invoices')).toBeUndefined();
      });

      it('read the same to their runner as it resumes, with no commit interrupted', async () => {
        await store.commit([upsert('docs', { id: 'a' }, 7n)], { name: 'customers', position: 7n });

        expect(await store.recoverCheckpoint('customers')).toBe(7n);
        expect(await store.recoverCheckpoint('invoices')).toBeUndefined();
      });

      it('stay unchanged by a commit without one', async () => {
        await store.commit([], { name: 'customers', position: 3n });
        await store.commit([upsert('docs', { id: 'a' }, 4n)]);

        expect(await store.getCheckpoint('customers')).toBe(3n);
      });
    });

    describe('reset', () => {
      it('removes the named collections (tombstones too) and checkpoints, and nothing else', async () => {
        await store.commit(
          [upsert('docs', { id: 'a' }, 5n), remove('docs', 'b', 6n), upsert('kept', { id: 'k' }, 7n)],
          { name: 'docs', position: 7n },
        );
        await store.commit([], { name: 'kept', position: 7n });

        await store.reset(['docs'], ['docs']);

        expect(await store.all('docs')).toEqual([]);
        expect(await store.getCheckpoint('docs')).toBeUndefined();
        expect(await store.all('kept')).toEqual([{ id: 'k' }]);
        expect(await store.getCheckpoint('kept')).toBe(7n);

        await store.commit([upsert('docs', { id: 'a', rebuilt: true }, 1n), upsert('docs', { id: 'b' }, 2n)]);
        expect(await store.all('docs')).toEqual([{ id: 'a', rebuilt: true }, { id: 'b' }]);
      });
    });

    describe('validation', () => {
      it('rejects collection names and field paths that are not plain names', async () => {
        for (const collection of ['docs; DROP TABLE es_events', 'Docs', '1docs', 'do-cs', 'docs"', '', 'checkpoints']) {
          await expect(store.find(collection, { limit: 1 })).rejects.toThrow();
          await expect(store.commit([upsert(collection, { id: 'a' }, 1n)])).rejects.toThrow();
        }
        for (const field of ["a') OR 1=1 --", '$where', 'a..b', '1a', 'a-b', '']) {
          await expect(store.find('docs', { where: [{ field, op: 'eq', value: 1 }], limit: 1 })).rejects.toThrow();
          await expect(store.find('docs', { sort: { field, direction: 'asc' }, limit: 1 })).rejects.toThrow();
          await expect(store.ensureCollection('docs', [{ fields: [field] }])).rejects.toThrow();
        }
      });

      it('rejects limits, values and documents it could misread', async () => {
        for (const limit of [0, -1, 1.5, Number.NaN]) await expect(store.find('docs', { limit })).rejects.toThrow();
        await expect(store.find('docs', { where: [{ field: 'n', op: 'gt', value: Number.NaN }], limit: 1 })).rejects.toThrow();
        await expect(store.find('docs', { where: [{ field: 'n', op: 'starts', value: 1 }], limit: 1 })).rejects.toThrow();
        await expect(store.find('docs', { where: [{ field: 'n', op: 'in', value: 'a' }], limit: 1 })).rejects.toThrow();
        await expect(store.commit([upsert('docs', { id: 7 } as unknown as Doc, 1n)])).rejects.toThrow();
        await expect(store.commit([upsert('docs', { id: 'a', _id: 'b' }, 1n)])).rejects.toThrow();
        await expect(store.commit([remove('docs', 7 as unknown as string, 1n)])).rejects.toThrow();
        await expect(store.commit([upsert('docs', { id: 'a' }, -1n)])).rejects.toThrow();
      });

      it('applies none of the writes of a commit that fails', async () => {
        await expect(
          store.commit([upsert('docs', { id: 'a' }, 1n), upsert('docs', { id: 'b', _position: 1 }, 2n)], { name: 'docs', position: 2n }),
        ).rejects.toThrow();

        expect(await store.all('docs')).toEqual([]);
        expect(await store.getCheckpoint('docs')).toBeUndefined();
      });
    });
  });
}

function upsert(collection: string, doc: Doc, position: bigint): Write {
  return { op: 'upsert', collection, doc, position };
}

function remove(collection: string, id: string, position: bigint): Write {
  return { op: 'delete', collection, id, position };
}

function valueAt(doc: Doc, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), doc);
}

function cursorAfter(doc: Doc, sort: SortSpec): After {
  return { value: (valueAt(doc, sort.field) ?? null) as After['value'], id: doc.id };
}

/** Binary UTF-8 order, which is code point order (JavaScript's `<` compares UTF-16 units). */
function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** MongoDB's order for a field holding one JSON type: null and missing first. */
function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return Math.sign(Number(a) - Number(b));
}

function compareDocs(a: Doc, b: Doc, sort: SortSpec): number {
  const order = compareValues(valueAt(a, sort.field), valueAt(b, sort.field)) || compareText(a.id, b.id);
  return sort.direction === 'asc' ? order : -order;
}

const MISSING = Symbol('missing');

/** Documents whose sort field holds one JSON type, with duplicates, nulls and missing values. */
function pagingCase() {
  const values = {
    number: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 10, 100, -1e21)),
    string: fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'é', '😀', 'ﬀ', '1', '9', '%'), maxLength: 3 }),
    boolean: fc.boolean(),
  };
  const ids = fc.string({ unit: fc.constantFrom('a', 'B', 'é', '😀', '0'), minLength: 1, maxLength: 4 });
  return fc.constantFrom('number' as const, 'string' as const, 'boolean' as const).chain((kind) =>
    fc.record({
      field: fc.constantFrom('v', 'meta.v'),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      pageSize: fc.integer({ min: 1, max: 7 }),
      onlyGroup: fc.constantFrom(undefined, 'x'),
      entries: fc.uniqueArray(
        fc.record({
          id: ids,
          group: fc.constantFrom('x', 'y'),
          value: fc.oneof(values[kind] as fc.Arbitrary<unknown>, fc.constant(null), fc.constant(MISSING)),
        }),
        { selector: (entry) => entry.id, maxLength: 20 },
      ),
    }).map(({ entries, field, ...rest }) => ({
      ...rest,
      field,
      docs: entries.map(({ id, group, value }): Doc => {
        if (value === MISSING) return { id, group };
        return field === 'v' ? { id, group, v: value } : { id, group, meta: { v: value } };
      }),
    })),
  );
}

type Op = { position: bigint; id: string } & ({ kind: 'upsert'; v: number } | { kind: 'delete' });

/** Writes to a few documents at increasing positions, and the same writes in another order. */
function writeSequence() {
  const id = fc.constantFrom('a', 'b', 'c');
  const change = fc.oneof(
    fc.record({ kind: fc.constant('upsert' as const), id, v: fc.integer({ min: 0, max: 9 }) }),
    fc.record({ kind: fc.constant('delete' as const), id }),
  );
  return fc
    .array(change, { minLength: 1, maxLength: 12 })
    .map((changes): Op[] => changes.map((change, index) => ({ ...change, position: BigInt(index + 1) })))
    .chain((ops) => fc.record({ ops: fc.constant(ops), reordered: fc.shuffledSubarray(ops, { minLength: ops.length }) }));
}

function toWrite(collection: string, op: Op): Write {
  return op.kind === 'upsert' ? upsert(collection, { id: op.id, v: op.v }, op.position) : remove(collection, op.id, op.position);
}

function newestPerId(writes: readonly Write[]): Doc[] {
  const newest = new Map<string, Doc | undefined>();
  for (const write of writes) {
    if (write.op === 'upsert') newest.set(write.doc.id, write.doc);
    else if (write.op === 'delete') newest.set(write.id, undefined);
  }
  return [...newest.values()].filter((doc): doc is Doc => doc !== undefined).sort((a, b) => compareText(a.id, b.id));
}
