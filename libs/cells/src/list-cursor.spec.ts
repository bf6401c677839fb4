import type { Condition } from '@tally/readstore';
import { ListCursors, type PageQuery } from './list-cursor';

const keyed = ListCursors.derive(Buffer.alloc(32), 'eu');
const NEWEST: PageQuery = { sort: { field: 'created_at', direction: 'desc' } };
const AFTER = { value: '2026-05-01T10:00:00.000Z', id: 'cus_01' };
const open: Condition = { field: 'status', op: 'eq', value: 'open' };
const mine: Condition = { field: 'customer_id', op: 'eq', value: 'cus_01' };

const REFUSED = expect.objectContaining({ code: 'pagination.cursor_invalid' });

describe('ListCursors', () => {
  it('takes a cursor back on the list, sort and filters that issued it, the filters in any order', () => {
    const invoices = keyed.forList('invoices');
    const cursor = invoices.encode({ ...NEWEST, where: [open, mine] }, AFTER);
    expect(invoices.decode(cursor, { ...NEWEST, where: [mine, open] })).toEqual(AFTER);
    const either = invoices.encode({ ...NEWEST, where: [{ field: 'status', op: 'in', value: ['open', 'paid'] }] }, AFTER);
    expect(invoices.decode(either, { ...NEWEST, where: [{ field: 'status', op: 'in', value: ['paid', 'open'] }] })).toEqual(AFTER);
  });

  it('refuses a cursor of another list, as a customers cursor sent to invoices', () => {
    const cursor = keyed.forList('customers').encode(NEWEST, AFTER);
    for (const list of ['invoices', 'payments', 'events']) expect(() => keyed.forList(list).decode(cursor, NEWEST)).toThrow(REFUSED);
  });

  it('refuses a cursor of the same route for another parent, as a customer’s tax IDs sent for another customer', () => {
    const cursor = keyed.forList('tax_ids:cus_01').encode(NEWEST, AFTER);
    expect(() => keyed.forList('tax_ids:cus_02').decode(cursor, NEWEST)).toThrow(REFUSED);
  });

  it('refuses a cursor under other filters, fewer or more', () => {
    const invoices = keyed.forList('invoices');
    const cursor = invoices.encode({ ...NEWEST, where: [open] }, AFTER);
    expect(() => invoices.decode(cursor, NEWEST)).toThrow(REFUSED);
    expect(() => invoices.decode(cursor, { ...NEWEST, where: [open, mine] })).toThrow(REFUSED);
    expect(() => invoices.decode(cursor, { ...NEWEST, where: [{ ...open, value: 'paid' }] })).toThrow(REFUSED);
  });

  it('refuses a cursor under another sort, or from another cell', () => {
    const cursor = keyed.forList('invoices').encode(NEWEST, AFTER);
    expect(() => keyed.forList('invoices').decode(cursor, { sort: { field: 'created_at', direction: 'asc' } })).toThrow(REFUSED);
    expect(() => ListCursors.derive(Buffer.alloc(32), 'us').forList('invoices').decode(cursor, NEWEST)).toThrow(REFUSED);
  });
});
