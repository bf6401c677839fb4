import { decodePosition, encodePosition } from './esdb-position';

describe('EventStoreDB position encoding', () => {
  const max = (1n << 64n) - 1n;

  it('round-trips commit and prepare, up to 64 bits each', () => {
    for (const position of [
      { commit: 0n, prepare: 0n },
      { commit: 1234n, prepare: 1234n },
      { commit: 1234n, prepare: 1100n },
      { commit: max, prepare: max },
    ]) {
      expect(decodePosition(encodePosition(position))).toEqual(position);
    }
  });

  it('orders like $all: by commit, then by prepare', () => {
    const ordered = [
      { commit: 10n, prepare: 10n },
      { commit: 10n, prepare: 20n },
      { commit: 11n, prepare: 0n },
      { commit: 11n, prepare: max },
      { commit: 12n, prepare: 5n },
    ].map(encodePosition);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]).toBeGreaterThan(ordered[i - 1]);
  });
});
