import { usageUpcasters } from './usage.upcasters';

describe('usage upcasters', () => {
  it('reads a LateUsageSettled of version 1 with no period end', () => {
    const [lateUsageSettled] = usageUpcasters;
    const stored = { subscription_id: 'sub_1', period_start: '2026-06-01T00:00:00.000Z', batch_id: 'ubat_1', outcome: 'rebilled', voided_invoice_id: 'in_1' };
    const metadata = { tenant_id: 'ten_1', environment: 'test', occurred_at: '2026-07-01T00:00:00.000Z', schema_version: 1 };
    expect([lateUsageSettled.eventType, lateUsageSettled.fromVersion]).toEqual(['LateUsageSettled', 1]);
    expect(lateUsageSettled.upcast(stored, metadata)).toEqual({ ...stored, period_end: null });
  });
});
