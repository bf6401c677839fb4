import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31';

const documentWith = (schema: object): OpenAPIObject =>
  ({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Thing: { type: 'object', properties: { field: schema } } } } }) as unknown as OpenAPIObject;

const fieldOf = (document: OpenAPIObject): unknown => (document.components!.schemas!.Thing as { properties: { field: unknown } }).properties.field;

describe('toOpenApi31', () => {
  it('makes a nullable string one of the types string and null', () => {
    const document = documentWith({ type: 'string', nullable: true, example: 'x' });
    toOpenApi31(document);
    expect(document.openapi).toBe('3.1.0');
    expect(fieldOf(document)).toEqual({ type: ['string', 'null'], example: 'x' });
  });

  it('adds null to a nullable enum', () => {
    const document = documentWith({ type: 'string', nullable: true, enum: ['a', 'b'] });
    toOpenApi31(document);
    expect(fieldOf(document)).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
  });

  it('keeps the one null of an enum that already names it', () => {
    const document = documentWith({ type: 'string', nullable: true, enum: ['a', null] });
    toOpenApi31(document);
    expect(fieldOf(document)).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('makes a nullable reference a choice of it and null, its description beside the choice', () => {
    const document = documentWith({ type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Other' }], description: 'd' });
    toOpenApi31(document);
    expect(fieldOf(document)).toEqual({ description: 'd', anyOf: [{ $ref: '#/components/schemas/Other' }, { type: 'null' }] });
  });
});
