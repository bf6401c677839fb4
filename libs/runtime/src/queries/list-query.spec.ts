import { ListCursors } from '@tally/cells';
import { parseListQuery, type ListSpec } from './list-query';

const INVOICES: ListSpec = {
  sortable: ['created_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: ['open', 'paid', 'void'] },
    number: { ops: ['eq', 'starts'] },
  },
};
const cursors = ListCursors.derive(Buffer.alloc(32), 'test').forList('invoices');
const parse = (params: Record<string, unknown>) => parseListQuery(params, INVOICES, cursors);


describe('parseListQuery, enum filters', () => {
  it('takes one of the values, or several', () => {
    expect(parse({ status: 'paid' }).where).toEqual([{ field: 'status', op: 'eq', value: 'paid' }]);
    expect(parse({ status: 'open,void' }).where).toEqual([{ field: 'status', op: 'in', value: ['open', 'void'] }]);
  });

  it.each(['bogus', 'open,bogus', 'Paid', '', 'open,'])('refuses %j, naming the parameter and the values it takes', (status) => {
    expect(() => parse({ status })).toThrow(
      expect.objectContaining({ code: 'request.invalid_parameter', message: expect.stringContaining('status takes open, paid, void'), fields: [expect.objectContaining({ field: 'status' })] }),
    );
  });

  it('leaves filters without values free', () => {
    expect(parse({ number: 'INV-7' }).where).toEqual([{ field: 'number', op: 'eq', value: 'INV-7' }]);
    expect(parse({ 'number[starts]': 'INV-' }).where).toEqual([{ field: 'number', op: 'starts', value: 'INV-' }]);
  });
});
