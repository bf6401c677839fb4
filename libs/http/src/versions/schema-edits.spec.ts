import { editObjects, editProperty, optionalProperty, renameProperty } from './schema-edits';

const error = { type: 'object', properties: { code: { type: 'string' }, is_retriable: { type: 'boolean' }, after: { type: 'string' } }, required: ['code', 'is_retriable'] };

describe('schema edits', () => {
  it('renames a property in its place among the properties and the required fields', () => {
    const renamed = renameProperty(error, 'is_retriable', 'retriable');
    expect(Object.keys(renamed.properties!)).toEqual(['code', 'retriable', 'after']);
    expect(renamed.required).toEqual(['code', 'retriable']);
    expect(renameProperty(error, 'missing', 'other')).toBe(error);
  });

  it('edits one property, and leaves a schema without it as it is', () => {
    expect(editProperty(error, 'code', () => ({ type: 'integer' })).properties).toEqual({ ...error.properties, code: { type: 'integer' } });
    expect(editProperty(error, 'missing', () => ({ type: 'integer' }))).toBe(error);
  });

  it('makes a required property optional', () => {
    expect(optionalProperty(error, 'code').required).toEqual(['is_retriable']);
    expect(optionalProperty({ type: 'object' }, 'code')).toEqual({ type: 'object' });
  });

  it('edits every object a value may be: a reference copied in place, the members of a choice, an inline object; not a scalar', () => {
    const resolve = () => error;
    const mark = (object: object) => ({ ...object, title: 'edited' });
    expect(editObjects({ $ref: '#/components/schemas/Error' }, resolve, mark)).toEqual({ ...error, title: 'edited' });
    expect(editObjects({ oneOf: [{ $ref: '#/components/schemas/Error' }, { type: 'null' }] }, resolve, mark)).toEqual({ oneOf: [{ ...error, title: 'edited' }, { type: 'null' }] });
    expect(editObjects({ type: ['object', 'null'], properties: {} }, resolve, mark)).toEqual({ type: ['object', 'null'], properties: {}, title: 'edited' });
    expect(editObjects({ type: 'string' }, resolve, mark)).toEqual({ type: 'string' });
  });
});
