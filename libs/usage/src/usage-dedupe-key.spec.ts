import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { usageDedupeKey } from './usage-dedupe-key';

/** The form the keys were first stored in, which they must keep. */
const storedForm = (subscriptionId: string, meter: string, externalId: string): string =>
  createHash('sha256').update(JSON.stringify([subscriptionId, meter, externalId])).digest().subarray(0, 16).toString('base64url');

describe('usageDedupeKey', () => {
  it('is the base64url of the first 16 bytes of the SHA-256 of [subscription, meter, external id]', () => {
    const externalIds = [randomUUID(), 'é😀\u0000"\\', '', 'x'.repeat(255), ...Array.from({ length: 2000 }, () => randomBytes(12).toString('base64'))];
    for (const externalId of externalIds) {
      const record = { subscription_id: 'sub_1', meter: 'api.calls', external_id: externalId };
      expect(usageDedupeKey(record)).toBe(storedForm('sub_1', 'api.calls', externalId));
    }
  });

  it('tells apart the same external id on another subscription or meter', () => {
    const keys = new Set([
      usageDedupeKey({ subscription_id: 'sub_1', meter: 'calls', external_id: 'e1' }),
      usageDedupeKey({ subscription_id: 'sub_2', meter: 'calls', external_id: 'e1' }),
      usageDedupeKey({ subscription_id: 'sub_1', meter: 'storage', external_id: 'e1' }),
    ]);
    expect(keys.size).toBe(3);
  });
});
