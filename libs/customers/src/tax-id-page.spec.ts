import type { TaxIdResource } from './customer.view';
import { taxIdPage } from './tax-id-page';

const taxId = (id: string, created_at: string): TaxIdResource => ({
  id,
  object: 'tax_id',
  type: 'eu_vat',
  value: 'DE136695976',
  country: null,
  verification: { status: 'pending', reason: null },
  created_at,
});

// Added in this order; txi_b and txi_c in the same millisecond.
const taxIds = [taxId('txi_a', '2026-05-01T10:00:00.000Z'), taxId('txi_b', '2026-05-01T10:00:01.000Z'), taxId('txi_c', '2026-05-01T10:00:01.000Z'), taxId('txi_d', '2026-05-01T10:00:02.000Z')];
const ids = (items: TaxIdResource[]) => items.map((t) => t.id);

describe('a page of tax IDs', () => {
  it('lists newest first, ties by id in the same direction, and says whether more follow', () => {
    const page = taxIdPage(taxIds, { sort: { field: 'created_at', direction: 'desc' }, limit: 3 });
    expect(ids(page.items)).toEqual(['txi_d', 'txi_c', 'txi_b']);
    expect(page.hasMore).toBe(true);
  });

  it('resumes after the last tax ID of the previous page', () => {
    const page = taxIdPage(taxIds, { sort: { field: 'created_at', direction: 'desc' }, limit: 3, after: { value: '2026-05-01T10:00:01.000Z', id: 'txi_c' } });
    expect(ids(page.items)).toEqual(['txi_b', 'txi_a']);
    expect(page.hasMore).toBe(false);
  });

  it('lists oldest first when asked', () => {
    const page = taxIdPage(taxIds, { sort: { field: 'created_at', direction: 'asc' }, limit: 2, after: { value: '2026-05-01T10:00:00.000Z', id: 'txi_a' } });
    expect(ids(page.items)).toEqual(['txi_b', 'txi_c']);
    expect(page.hasMore).toBe(true);
  });

  it('skips a deleted tax ID that the cursor names and keeps its place', () => {
    const page = taxIdPage(taxIds.filter((t) => t.id !== 'txi_c'), { sort: { field: 'created_at', direction: 'desc' }, limit: 25, after: { value: '2026-05-01T10:00:01.000Z', id: 'txi_c' } });
    expect(ids(page.items)).toEqual(['txi_b', 'txi_a']);
  });

  it('answers an empty last page for a customer without tax IDs', () => {
    expect(taxIdPage([], { sort: { field: 'created_at', direction: 'desc' }, limit: 25 })).toEqual({ items: [], hasMore: false });
  });
});
