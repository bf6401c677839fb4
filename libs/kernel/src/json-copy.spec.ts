import Big from 'big.js';
import { jsonCopy } from './json-copy';

const throughJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('jsonCopy', () => {
  const cases: [string, unknown][] = [
    ['scalars', { a: 'x', b: 1.5, c: true, d: null, e: 0 }],
    ['an invoice-like payload', { lines: [{ amount: '10.00', tiers: [], metadata: {} }], totals: { tax: '2.30' }, period_start: '2026-01-01T00:00:00.000Z' }],
    ['undefined, functions and symbols dropped from objects', { a: undefined, b: () => 1, c: Symbol('s'), d: 'kept' }],
    ['undefined, functions and symbols as null in arrays', [undefined, () => 1, Symbol('s'), 'kept']],
    ['numbers that are not finite', { a: NaN, b: Infinity, c: [-Infinity] }],
    ['a Big and a Date through their toJSON', { amount: new Big('12.30'), at: new Date('2026-11-28T00:00:00.000Z') }],
    ['an own toJSON', { value: { toJSON: () => 'shown' } }],
    ['a Map, a Set and a class instance', { map: new Map([['k', 1]]), set: new Set([1]), instance: new (class { field = 'f'; })() }],
    ['a null-prototype object', { metadata: Object.assign(Object.create(null) as object, { plan: 'pro' }) }],
    ['a sparse array', { items: new Array<number>(3).fill(1, 0, 1).fill(3, 2) }],
  ];

  it.each(cases)('copies %s as JSON gives it back', (_name, value) => {
    expect(jsonCopy(value)).toStrictEqual(throughJson(value));
  });

  it('keeps a user-supplied __proto__ key as data, as JSON.parse does', () => {
    const value = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"plan":"pro"}}') as { metadata: Record<string, unknown> };
    const copy = jsonCopy(value) as { metadata: Record<string, unknown> };
    expect(Object.keys(copy.metadata)).toEqual(['__proto__', 'plan']);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect((copy.metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(copy).toStrictEqual(throughJson(value));
  });

  it('copies deeply: changing the copy leaves the original alone', () => {
    const original = { lines: [{ amount: '1.00' }] };
    const copy = jsonCopy(original) as typeof original;
    copy.lines[0].amount = '2.00';
    expect(original.lines[0].amount).toBe('1.00');
  });

  it('refuses a bigint as JSON does', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
  });
});
