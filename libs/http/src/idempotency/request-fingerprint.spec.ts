import { fingerprintOf } from './request-fingerprint';

describe('fingerprintOf', () => {
  it('ignores the order of object keys, at any depth', () => {
    expect(fingerprintOf({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: 'x' } })).toBe(fingerprintOf({ b: { f: 'x', c: [1, { e: 3, d: 2 }] }, a: 1 }));
  });

  it.each([
    ['another value', { a: 1 }, { a: 2 }],
    ['another type', { a: 1 }, { a: '1' }],
    ['another array order', { a: [1, 2] }, { a: [2, 1] }],
    ['an extra field', { a: 1 }, { a: 1, b: null }],
    ['a key that merges with its value', { ab: 'c' }, { a: 'bc' }],
    ['no body and an empty one', undefined, {}],
  ])('tells apart %s', (_name, one, other) => {
    expect(fingerprintOf(one)).not.toBe(fingerprintOf(other));
  });

  it('is a SHA-256 in base64url', () => {
    expect(fingerprintOf({})).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
