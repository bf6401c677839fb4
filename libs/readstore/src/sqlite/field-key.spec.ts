import Database from 'better-sqlite3';
import fc from 'fast-check';
import { fieldKey } from './field-key';
import { keyExpression, typeExpression } from './sqlite-schema';

const KIND_OF_JSON_TYPE: Record<string, string> = { text: 'string', integer: 'number', real: 'number', true: 'boolean', false: 'boolean' };

describe('fieldKey', () => {
  const db = new Database(':memory:');
  const inSql = (doc: object, field: string) => {
    const row = db.prepare(`SELECT ${keyExpression(field)} AS key, ${typeExpression(field)} AS type FROM (SELECT ? AS doc)`).get(JSON.stringify(doc)) as {
      key: string | number;
      type: string | null;
    };
    return [row.key, KIND_OF_JSON_TYPE[row.type ?? ''] ?? null];
  };

  afterAll(() => db.close());

  it('finds what the SQL key and type expressions find in the stored JSON', () => {
    const name = fc.constantFrom('a', 'b', 'toString', 'constructor');
    // Integral numbers from 2^53 to 2^63 are left out: JSON.stringify rounds their digits, and
    // json_extract reads the rounded text as a different integer.
    const number = fc.oneof(fc.integer(), fc.double().filter((value) => !(Number.isInteger(value) && Math.abs(value) >= 2 ** 53 && Math.abs(value) < 2 ** 63)));
    const leaf = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'B', 'é', '😀', '"', '\\', '\n'), maxLength: 3 }),
      number,
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date(),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), fc.array(tie('value'), { maxLength: 2 })),
      object: fc.dictionary(name, tie('value'), { maxKeys: 3 }),
    }));
    const doc = fc.dictionary(name, value, { maxKeys: 3 });
    const path = fc.array(name, { minLength: 1, maxLength: 3 });

    fc.assert(
      fc.property(doc, path, (document, segments) => {
        expect(fieldKey(document, segments)).toEqual(inSql(document, segments.join('.')));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads values as JSON.stringify writes them', () => {
    expect(fieldKey({ id: 'a', on: true, off: false }, ['off'])).toEqual([0, 'boolean']);
    expect(fieldKey({ id: 'a', at: new Date('2026-01-02T03:04:05.000Z') }, ['at'])).toEqual(['2026-01-02T03:04:05.000Z', 'string']);
    expect(fieldKey({ id: 'a', n: -0 }, ['n'])).toEqual([0, 'number']);
    expect(fieldKey({ id: 'a', n: Number.NaN }, ['n'])).toEqual([-Infinity, null]);
    expect(fieldKey({ id: 'a', n: undefined }, ['n'])).toEqual([-Infinity, null]);
    expect(fieldKey({ id: 'a' }, ['toString'])).toEqual([-Infinity, null]);
    expect(fieldKey({ id: 'a', tags: ['x', 1] }, ['tags'])).toEqual(['["x",1]', null]);
    expect(fieldKey({ id: 'a', tags: ['x', 1] }, ['tags', '0'])).toEqual([-Infinity, null]);
  });
});
