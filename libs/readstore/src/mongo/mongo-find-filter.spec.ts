import fc from 'fast-check';
import { mongoFindFilter, mongoSort } from './mongo-find-filter';

const NOT_DELETED = { _deleted: { $ne: true } };

describe('mongoFindFilter', () => {
  it('leaves out tombstones', () => {
    expect(mongoFindFilter({ limit: 5 })).toEqual({ $and: [NOT_DELETED] });
  });

  it('translates each condition, with id as _id', () => {
    const filter = mongoFindFilter({
      where: [
        { field: 'status', op: 'in', value: ['open', 'paid'] },
        { field: 'type', op: 'nin', value: ['wallet.credited'] },
        { field: 'billing_address.country', op: 'eq', value: null },
        { field: 'due_at', op: 'lte', value: '2026-02-01' },
        { field: 'amount', op: 'gt', value: 5 },
        { field: 'id', op: 'gte', value: 'in_1' },
        { field: 'email', op: 'starts', value: '50%_a.b*(c)' },
      ],
      limit: 5,
    });

    expect(filter).toEqual({
      $and: [
        NOT_DELETED,
        { status: { $in: ['open', 'paid'] } },
        { type: { $nin: ['wallet.credited'] } },
        { 'billing_address.country': { $eq: null } },
        { due_at: { $lte: '2026-02-01' } },
        { amount: { $gt: 5 } },
        { _id: { $gte: 'in_1' } },
        { email: { $regex: '^50%_a\\.b\\*\\(c\\)' } },
      ],
    });
  });

  it('turns starts into an anchored pattern that matches exactly the strings with the prefix', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'A', '.', '*', '+', '?', '^', '$', '{', '}', '(', ')', '|', '[', ']', '\\', '%', '_', '\n'), maxLength: 4 });
    fc.assert(
      fc.property(text, text, (prefix, value) => {
        const [, condition] = mongoFindFilter({ where: [{ field: 'email', op: 'starts', value: prefix }], limit: 1 }).$and!;
        const pattern = (condition as { email: { $regex: string } }).email.$regex;
        return new RegExp(pattern).test(value) === value.startsWith(prefix);
      }),
      { numRuns: 1000 },
    );
  });

  it('continues after the cursor by sort value, then by _id among ties', () => {
    const after = { value: '2026-01-05', id: 'in_5' };

    expect(mongoFindFilter({ sort: { field: 'created_at', direction: 'asc' }, after, limit: 5 }).$and![1]).toEqual({
      $or: [{ created_at: { $gt: '2026-01-05' } }, { created_at: { $eq: '2026-01-05' }, _id: { $gt: 'in_5' } }],
    });
    expect(mongoFindFilter({ sort: { field: 'created_at', direction: 'desc' }, after, limit: 5 }).$and![1]).toEqual({
      $or: [{ created_at: { $lt: '2026-01-05' } }, { created_at: { $eq: '2026-01-05' }, _id: { $lt: 'in_5' } }, { created_at: null }],
    });
  });

  it('pages through null and missing values, which sort first', () => {
    const after = { value: null, id: 'in_5' };

    expect(mongoFindFilter({ sort: { field: 'paid_at', direction: 'asc' }, after, limit: 5 }).$and![1]).toEqual({
      $or: [{ paid_at: null, _id: { $gt: 'in_5' } }, { paid_at: { $ne: null } }],
    });
    expect(mongoFindFilter({ sort: { field: 'paid_at', direction: 'desc' }, after, limit: 5 }).$and![1]).toEqual({ paid_at: null, _id: { $lt: 'in_5' } });
  });

  it('pages by _id alone when sorting by id', () => {
    expect(mongoFindFilter({ sort: { field: 'id', direction: 'desc' }, after: { value: 'in_5', id: 'in_5' }, limit: 5 }).$and![1]).toEqual({
      _id: { $lt: 'in_5' },
    });
  });
});

describe('mongoSort', () => {
  it('sorts by the field, then _id in the same direction', () => {
    const sort = mongoSort({ field: 'created_at', direction: 'desc' });

    expect(sort).toEqual({ created_at: -1, _id: -1 });
    expect(Object.keys(sort)).toEqual(['created_at', '_id']);
  });

  it('sorts by _id by default and for id', () => {
    expect(mongoSort()).toEqual({ _id: 1 });
    expect(mongoSort({ field: 'id', direction: 'desc' })).toEqual({ _id: -1 });
  });
});
