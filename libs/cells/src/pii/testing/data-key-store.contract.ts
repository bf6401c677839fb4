import { randomBytes } from 'node:crypto';
import { DataKeyDestroyedError } from '../data-key-destroyed.error';
import type { DataKeyStore } from '../data-key-store.port';

export interface DataKeyStoreUnderTest {
  store: DataKeyStore;
  /** Another store over the same database, with the given master key. */
  reopen(masterKey: Buffer): DataKeyStore;
  masterKey: Buffer;
  /** Closes the store and removes whatever it created. */
  cleanup(): Promise<void>;
}

/** The behaviour every DataKeyStore adapter shares. `makeStore` gives an empty store for each test. */
export function describeDataKeyStoreContract(name: string, makeStore: () => Promise<DataKeyStoreUnderTest>): void {
  describe(`DataKeyStore contract: ${name}`, () => {
    let subject: DataKeyStoreUnderTest | undefined;
    let store: DataKeyStore;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });

    afterEach(async () => {
      await subject?.cleanup();
      subject = undefined;
    });

    it('has no key for a subject until one is created', async () => {
      await expect(store.get('cus_1')).resolves.toBeUndefined();
    });

    it('creates a 32-byte key once and returns it from then on', async () => {
      const key = await store.getOrCreate('cus_1');
      expect(key).toHaveLength(32);
      await expect(store.getOrCreate('cus_1')).resolves.toEqual(key);
      await expect(store.get('cus_1')).resolves.toEqual(key);
    });

    it('gives each subject its own key', async () => {
      const first = await store.getOrCreate('cus_1');
      const second = await store.getOrCreate('cus_2');
      expect(first.equals(second)).toBe(false);
    });

    it('agrees on one key when creations race', async () => {
      const keys = await Promise.all([1, 2, 3, 4, 5].map(() => store.getOrCreate('cus_1')));
      for (const key of keys) expect(key).toEqual(keys[0]);
    });

    it('keeps keys for another store over the same database with the same master key', async () => {
      const key = await store.getOrCreate('cus_1');
      await expect(subject!.reopen(subject!.masterKey).get('cus_1')).resolves.toEqual(key);
    });

    it('cannot unwrap the stored keys with another master key', async () => {
      await store.getOrCreate('cus_1');
      await expect(subject!.reopen(randomBytes(32)).get('cus_1')).rejects.toThrow();
    });

    it('forgets a destroyed key and never creates it again', async () => {
      await store.getOrCreate('cus_1');
      await store.destroy('cus_1');
      await expect(store.get('cus_1')).resolves.toBeUndefined();
      const attempt = store.getOrCreate('cus_1');
      await expect(attempt).rejects.toBeInstanceOf(DataKeyDestroyedError);
      await expect(attempt).rejects.toMatchObject({ subjectId: 'cus_1' });
    });

    it('leaves other subjects alone when one key is destroyed', async () => {
      const kept = await store.getOrCreate('cus_2');
      await store.getOrCreate('cus_1');
      await store.destroy('cus_1');
      await expect(store.get('cus_2')).resolves.toEqual(kept);
    });

    it('accepts destroying twice, or before any key exists, and still refuses creation', async () => {
      await store.destroy('cus_1');
      await store.destroy('cus_1');
      await expect(store.getOrCreate('cus_1')).rejects.toBeInstanceOf(DataKeyDestroyedError);
    });
  });
}
