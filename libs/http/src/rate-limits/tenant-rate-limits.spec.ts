import type { Doc } from '@tally/readstore';
import { TenantRateLimits } from './tenant-rate-limits';

const T0 = Date.parse('2026-05-01T10:00:00.000Z');

/** A directory whose tenants can be changed, counting its reads. */
function directory(tenants: Record<string, Doc>) {
  const reads: string[] = [];
  let failing = false;
  return {
    reads,
    tenants,
    fail: (value: boolean) => (failing = value),
    get: async <T extends Doc>(_collection: string, id: string): Promise<T | undefined> => {
      reads.push(id);
      if (failing) throw new Error('directory unavailable');
      return tenants[id] as T | undefined;
    },
  };
}

describe('TenantRateLimits', () => {
  it('reads a tenant from the directory at most once a second', async () => {
    const store = directory({ ten_1: { id: 'ten_1', rate_limits: { read: 5000 } } });
    const limits = new TenantRateLimits(store);
    expect(await limits.raisedFor('ten_1', T0)).toEqual({ read: 5000 });
    store.tenants.ten_1 = { id: 'ten_1', rate_limits: { read: 9000 } };
    expect(await limits.raisedFor('ten_1', T0 + 999)).toEqual({ read: 5000 });
    expect(await limits.raisedFor('ten_1', T0 + 1000)).toEqual({ read: 9000 });
    expect(store.reads).toEqual(['ten_1', 'ten_1']);
  });

  it('shares one read among concurrent requests, and keeps tenants apart', async () => {
    const store = directory({ ten_1: { id: 'ten_1', rate_limits: { admin: 80 } }, ten_2: { id: 'ten_2' } });
    const limits = new TenantRateLimits(store);
    const answers = await Promise.all([limits.raisedFor('ten_1', T0), limits.raisedFor('ten_1', T0), limits.raisedFor('ten_2', T0)]);
    expect(answers).toEqual([{ admin: 80 }, { admin: 80 }, {}]);
    expect(store.reads).toEqual(['ten_1', 'ten_2']);
  });

  it('asks the directory again after a failed read', async () => {
    const store = directory({ ten_1: { id: 'ten_1', rate_limits: { write: 400 } } });
    const limits = new TenantRateLimits(store);
    store.fail(true);
    await expect(limits.raisedFor('ten_1', T0)).rejects.toThrow('directory unavailable');
    store.fail(false);
    expect(await limits.raisedFor('ten_1', T0 + 1)).toEqual({ write: 400 });
  });
});
