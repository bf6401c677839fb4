import { DirectoryChanges } from '@tally/cells';
import { ApiKeyCache } from './api-key-cache';

describe('ApiKeyCache', () => {
  let changes: DirectoryChanges;
  let cache: ApiKeyCache<string>;
  let reads: number;
  const read = (value: string | undefined) => async () => {
    reads += 1;
    return value;
  };

  beforeEach(() => {
    changes = new DirectoryChanges();
    cache = new ApiKeyCache(changes, 3);
    reads = 0;
  });

  it('reads a key once until the directory changes, then reads it again', async () => {
    await expect(cache.resolve('h1', read('active'))).resolves.toBe('active');
    await expect(cache.resolve('h1', read('other'))).resolves.toBe('active');
    changes.changed();
    await expect(cache.resolve('h1', read('revoked'))).resolves.toBe('revoked');
    expect(reads).toBe(2);
  });

  it('keeps no unknown key', async () => {
    await cache.resolve('h1', read(undefined));
    await expect(cache.resolve('h1', read('active'))).resolves.toBe('active');
    expect(reads).toBe(2);
  });

  it('does not keep what a read found while the directory changed under it', async () => {
    let finish!: (value: string) => void;
    const slow = cache.resolve('h1', () => new Promise<string>((resolve) => (finish = resolve)));
    changes.changed();
    finish('active before the revocation');
    await expect(slow).resolves.toBe('active before the revocation');
    await expect(cache.resolve('h1', read('revoked'))).resolves.toBe('revoked');
  });

  it('starts over beyond its capacity', async () => {
    for (const hash of ['h1', 'h2', 'h3', 'h4']) await cache.resolve(hash, read(hash));
    await cache.resolve('h1', read('h1'));
    await cache.resolve('h4', read('h4'));
    expect(reads).toBe(5);
  });
});
