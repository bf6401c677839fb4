import type { DirectoryChanges } from '@tally/cells';

/**
 * What API keys resolved to in the directory, kept until the directory next changes, so a request
 * costs no directory read: a revoked or rolled key stops working once the directory projection
 * committed that, as it did without the cache. Unknown keys are not kept (anyone can send any
 * number of them); beyond `capacity` keys the cache starts over.
 */
export class ApiKeyCache<T> {
  private readonly resolved = new Map<string, T>();
  private generation = 0;

  constructor(
    changes: DirectoryChanges,
    private readonly capacity = 10_000,
  ) {
    changes.listen(() => {
      this.resolved.clear();
      this.generation += 1;
    });
  }

  async resolve(keyHash: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
    const cached = this.resolved.get(keyHash);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const found = await read();
    // A change that committed while the read ran may have outdated what it found.
    if (found !== undefined && generation === this.generation) {
      if (this.resolved.size >= this.capacity) this.resolved.clear();
      this.resolved.set(keyHash, found);
    }
    return found;
  }
}
