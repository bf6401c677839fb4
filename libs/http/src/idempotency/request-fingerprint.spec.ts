import { createHash } from 'node:crypto';
import { canonicalJson } from '@tally/kernel';
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

  it('stores no hash of a card number: it fingerprints the placeholder in its place', () => {
    const withCard = { type: 'card', token: '4242 4242 4242 4242', nested: [{ n: '4000056655665556' }] };
    expect(fingerprintOf(withCard)).toBe(fingerprintOf({ type: 'card', token: '[card number]', nested: [{ n: '[card number]' }] }));
    expect(fingerprintOf(withCard)).toBe(fingerprintOf({ ...withCard, token: '5555-5555-5555-4444' }));
  });

  it('fingerprints every other body as the canonical JSON it is (stored fingerprints stay valid)', () => {
    const body = { token: 'tok_visa', amount: '4242424242424241', __proto__: null, list: [1, 'x'] };
    expect(fingerprintOf(body)).toBe(createHash('sha256').update(canonicalJson(body)).digest('base64url'));
  });

  it('is a SHA-256 in base64url', () => {
    expect(fingerprintOf({})).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
