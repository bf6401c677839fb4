import { DomainError } from './domain-error';
import { checkMetadata, keyedObject, mergeMetadata, sameMetadata } from './metadata';

/** Keys a user may choose that are also members of every plain JavaScript object. */
const BUILT_IN_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe('metadata', () => {
  it('keeps keys named like object built-ins as ordinary keys when merging', () => {
    const current = keyedObject([['plan', 'gold']]);
    const patch = keyedObject(BUILT_IN_NAMES.map((key) => [key, `v-${key}`] as const));
    const merged = mergeMetadata(current, patch);
    expect(Object.keys(merged).sort()).toEqual([...BUILT_IN_NAMES, 'plan'].sort());
    expect(merged['__proto__']).toBe('v-__proto__');
    expect(Object.getPrototypeOf(merged)).toBeNull();
    expect(JSON.parse(JSON.stringify(merged))).toEqual(Object.fromEntries([...BUILT_IN_NAMES.map((key) => [key, `v-${key}`]), ['plan', 'gold']]));
  });

  it('removes a built-in-named key with an empty string', () => {
    const merged = mergeMetadata(keyedObject([['constructor', 'c'], ['plan', 'gold']]), keyedObject([['constructor', '']]));
    expect(Object.keys(merged)).toEqual(['plan']);
  });

  it('counts built-in-named keys against the limits like any other', () => {
    const tooMany = keyedObject([...BUILT_IN_NAMES, ...Array.from({ length: 46 }, (_, i) => `k${i}`)].map((key) => [key, 'v'] as const));
    expect(() => checkMetadata(tooMany)).toThrow(DomainError);
    expect(() => checkMetadata(keyedObject([['toString', 'x'.repeat(501)]]))).toThrow(/limits/);
  });

  it('counts a key in characters, so that 40 emoji make a key as 40 letters do', () => {
    expect(() => checkMetadata(keyedObject([['😀'.repeat(40), 'v']]))).not.toThrow();
    expect(() => checkMetadata(keyedObject([['😀'.repeat(41), 'v']]))).toThrow(/limits/);
  });

  it('holds an update’s patch to the limits, a key it removes too', () => {
    const current = keyedObject([['plan', 'gold']]);
    expect(() => mergeMetadata(current, keyedObject([['k'.repeat(41), '']]))).toThrow(/limits/);
    expect(() => mergeMetadata(current, keyedObject(Array.from({ length: 51 }, (_, i) => [`k${i}`, ''] as const)))).toThrow(/limits/);
  });

  it('compares metadata by keys and values, whatever their order', () => {
    expect(sameMetadata({ a: '1', b: '2' }, { b: '2', a: '1' })).toBe(true);
    expect(sameMetadata({ a: '1' }, { a: '2' })).toBe(false);
    expect(sameMetadata({ a: '1' }, { a: '1', b: '2' })).toBe(false);
    expect(sameMetadata(keyedObject([['constructor', 'x']]), {})).toBe(false);
  });
});
