import { oldestDueFirst } from './settlement-order';

describe('the order a wallet settles open invoices in', () => {
  it('is oldest due first', () => {
    const invoices = [
      { id: 'inv_1', dueAt: '2026-03-01T00:00:00.000Z' },
      { id: 'inv_2', dueAt: '2026-02-01T00:00:00.000Z' },
      { id: 'inv_3', dueAt: '2026-02-15T00:00:00.000Z' },
    ];
    expect(oldestDueFirst(invoices).map(({ id }) => id)).toEqual(['inv_2', 'inv_3', 'inv_1']);
  });

  it('orders invoices due at the same moment by id', () => {
    const invoices = [
      { id: 'inv_2', dueAt: '2026-02-01T00:00:00.000Z' },
      { id: 'inv_1', dueAt: '2026-02-01T00:00:00.000Z' },
    ];
    expect(oldestDueFirst(invoices).map(({ id }) => id)).toEqual(['inv_1', 'inv_2']);
  });

  it('leaves the invoices it was given as they were', () => {
    const invoices = [
      { id: 'inv_2', dueAt: '2026-03-01T00:00:00.000Z' },
      { id: 'inv_1', dueAt: '2026-02-01T00:00:00.000Z' },
    ];
    oldestDueFirst(invoices);
    expect(invoices.map(({ id }) => id)).toEqual(['inv_2', 'inv_1']);
  });
});
