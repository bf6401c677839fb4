import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { windowsFor } from './rate-limit-policy';
import { describeRateLimitStoreContract } from './testing/rate-limit-store.contract';

describeRateLimitStoreContract(
  'MemoryRateLimitStore',
  async () => {
    const store = new MemoryRateLimitStore();
    return { store, cleanup: () => store.close() };
  },
  { atomic: true },
);

describe('MemoryRateLimitStore memory', () => {
  const T0 = Date.parse('2026-05-01T10:00:00.000Z');

  it('drops buckets once every unit has left every window', async () => {
    const store = new MemoryRateLimitStore();
    await store.take('ten_1:live:read', 1, windowsFor(10), T0);
    await store.take('ten_2:live:read', 1, windowsFor(10), T0 + 9_900);
    expect(store.size).toBe(2);
    await store.take('ten_3:live:read', 1, windowsFor(10), T0 + 10_000);
    expect(store.size).toBe(2);
    expect((await store.take('ten_1:live:read', 20, windowsFor(10), T0 + 10_000)).remaining).toBe(0);
  });
});
