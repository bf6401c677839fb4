import { previousAttributes } from './public-event';

describe('previousAttributes', () => {
  const before = { id: 'cus_1', name: 'Ada', metadata: { plan: 'pro', seats: '3' }, billing_address: null, tax_ids: [{ id: 'txi_1' }] };

  it('holds the old value of each top-level field that changed, and nothing else', () => {
    const after = { ...before, name: 'Ada L.', billing_address: { city: 'London' } };
    expect(previousAttributes(before, after)).toEqual({ name: 'Ada', billing_address: null });
  });

  it('compares values, not objects: an equal copy, even in another key order, did not change', () => {
    const after = { ...before, metadata: { seats: '3', plan: 'pro' }, tax_ids: [{ id: 'txi_1' }] };
    expect(previousAttributes(before, after)).toEqual({});
  });

  it('shows a field that appeared as null before, and one that went away with its old value', () => {
    const { tax_ids: _gone, ...rest } = before;
    expect(previousAttributes(before, { ...rest, email: 'ada@example.com' })).toEqual({ email: null, tax_ids: [{ id: 'txi_1' }] });
  });
});
