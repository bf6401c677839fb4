import { randomBytes } from 'node:crypto';
import type { SnapshotStore } from '../event-store.port';

/** The behaviour every SnapshotStore adapter must have. Stream names are unique per run. */
export function describeSnapshotStoreContract(
  name: string,
  makeStore: () => Promise<{ store: SnapshotStore; cleanup(): Promise<void> }>,
): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    const run = randomBytes(4).toString('hex');
    let counter = 0;
    let store: SnapshotStore;
    let cleanup: () => Promise<void>;
    const streamOf = (): string => `subscription${run}-${++counter}`;

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });

    afterEach(async () => {
      await cleanup();
    });

    it('loads nothing for a stream without a snapshot', async () => {
      expect(await store.load(streamOf(), 1)).toBeUndefined();
    });

    it('loads the saved snapshot with its state intact', async () => {
      const stream = streamOf();
      const state = { status: 'active', amount: '19.99', items: [{ price: 'price_1', quantity: 2 }], ended_at: null };
      await store.save({ stream, revision: 7, version: 2, state });

      expect(await store.load(stream, 2)).toEqual({ stream, revision: 7, version: 2, state });
    });

    it('ignores a snapshot of another version', async () => {
      const stream = streamOf();
      await store.save({ stream, revision: 3, version: 1, state: { a: 1 } });
      expect(await store.load(stream, 2)).toBeUndefined();
    });

    it('keeps only the latest: a newer snapshot replaces, an older one of the same version does not', async () => {
      const stream = streamOf();
      await store.save({ stream, revision: 5, version: 1, state: { at: 5 } });
      await store.save({ stream, revision: 9, version: 1, state: { at: 9 } });
      await store.save({ stream, revision: 6, version: 1, state: { at: 6 } });

      expect(await store.load(stream, 1)).toEqual({ stream, revision: 9, version: 1, state: { at: 9 } });
    });

    it('a snapshot of another version replaces the stored one, whatever its revision', async () => {
      const stream = streamOf();
      await store.save({ stream, revision: 9, version: 1, state: { shape: 'old' } });
      await store.save({ stream, revision: 4, version: 2, state: { shape: 'new' } });

      expect(await store.load(stream, 2)).toEqual({ stream, revision: 4, version: 2, state: { shape: 'new' } });
      expect(await store.load(stream, 1)).toBeUndefined();
    });

    it('keeps the snapshots of different streams apart', async () => {
      const a = streamOf();
      const b = streamOf();
      await store.save({ stream: a, revision: 1, version: 1, state: 'a' });
      await store.save({ stream: b, revision: 2, version: 1, state: 'b' });

      expect((await store.load(a, 1))?.state).toBe('a');
      expect((await store.load(b, 1))?.state).toBe('b');
    });
  });
}
