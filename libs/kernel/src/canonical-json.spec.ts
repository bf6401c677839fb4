import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('is the same for objects that differ only in key order', () => {
    expect(canonicalJson({ x: 1, y: 'é' })).toBe(canonicalJson({ y: 'é', x: 1 }));
  });
});
