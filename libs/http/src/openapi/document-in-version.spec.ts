import Ajv2020 from 'ajv/dist/2020';
import type { OpenAPIObject } from '@nestjs/swagger';
import { API_VERSIONS, CURRENT_API_VERSION } from '../versions/api-versions';
import { downgrade } from '../versions/downgrade';
import { documentInVersion } from './document-in-version';

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) Object.values(value).forEach(deepFreeze);
  return Object.freeze(value);
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: string) => ({ description: 'ok', content: { 'application/json': { schema: ref(name) } } });
const closed = (properties: Record<string, object>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

/** The current document's shapes of the resources the chain rewrites, as the generator writes them. */
const current = deepFreeze({
  openapi: '3.1.0',
  info: { title: 'Tally API', version: CURRENT_API_VERSION },
  paths: {
    '/v1/invoices': { get: { responses: { 200: body('InvoiceResponseList') } } },
    '/v1/customers/{id}': { get: { responses: { 200: body('CustomerResponse') } } },
  },
  components: {
    schemas: {
      InvoiceResponseList: closed({ object: { type: 'string', enum: ['list'] }, data: { type: 'array', items: ref('InvoiceResponse') } }),
      InvoiceResponse: closed({
        id: { type: 'string' },
        object: { type: 'string', enum: ['invoice'] },
        tax: { type: 'string' },
        payments: { type: 'array', items: { type: 'string' } },
        latest_payment: { anyOf: [ref('PaymentResponse'), { type: 'null' }] },
      }),
      PaymentResponse: closed({ id: { type: 'string' }, object: { type: 'string', enum: ['payment'] }, last_error: { anyOf: [ref('PaymentErrorResponse'), { type: 'null' }] } }),
      PaymentErrorResponse: closed({ code: { type: 'string' }, is_retriable: { type: 'boolean' } }),
      CustomerResponse: closed({ id: { type: 'string' }, object: { type: 'string', enum: ['customer'] } }),
    },
  },
}) as unknown as OpenAPIObject;

/** A page of invoices in the current version: one untaxed with a failed payment, one taxed without payments. */
const page = deepFreeze({
  object: 'list',
  data: [
    { id: 'inv_1', object: 'invoice', tax: '0.00', payments: ['pay_1', 'pay_2'], latest_payment: { id: 'pay_2', object: 'payment', last_error: { code: 'card_declined', is_retriable: true } } },
    { id: 'inv_2', object: 'invoice', tax: '2.10', payments: [], latest_payment: null },
  ],
});

const validatorOf = (document: OpenAPIObject, schema: string) => new Ajv2020({ strict: false }).compile({ ...ref(schema), components: document.components });

describe('documentInVersion', () => {
  it('answers the current version with the document itself', () => {
    expect(documentInVersion(current, CURRENT_API_VERSION)).toBe(current);
  });

  it.each(API_VERSIONS.filter((version) => version !== CURRENT_API_VERSION))('describes the bodies %s answers: what downgrade makes of a current body', (version) => {
    const document = documentInVersion(current, version);
    expect(document.info.version).toBe(version);
    const validate = validatorOf(document, 'InvoiceResponseList');
    expect([validate(downgrade(page, version)), validate.errors]).toEqual([true, null]);
  });

  it('describes no current body in a version that changed its shape', () => {
    for (const version of ['2025-10-01', '2024-10-01'] as const) expect(validatorOf(documentInVersion(current, version), 'InvoiceResponseList')(page)).toBe(false);
  });

  it('rewrites the resources wherever they are, and leaves out the component schemas no longer used', () => {
    const schemas = documentInVersion(current, '2024-10-01').components!.schemas!;
    expect(Object.keys(schemas).sort()).toEqual(['CustomerResponse', 'InvoiceResponse', 'InvoiceResponseList', 'PaymentResponse']);
    expect(schemas.InvoiceResponse).toMatchObject({ required: ['id', 'object', 'payments', 'latest_payment'], properties: { payments: { type: ['string', 'null'] } } });
    expect(schemas.PaymentResponse).toMatchObject({ properties: { last_error: { anyOf: [{ properties: { retriable: { type: 'boolean' } }, required: ['code', 'retriable'] }, { type: 'null' }] } } });
    expect(schemas.CustomerResponse).toEqual(current.components!.schemas!.CustomerResponse);
  });

  it('leaves out the operations of later versions, the paths left with none and the schemas only they used', () => {
    const withWallets = {
      ...current,
      paths: {
        ...current.paths,
        '/v1/wallets/{id}': { get: { 'x-since-version': '2025-10-01', responses: { 200: body('PrepaidWalletResponse') } } },
        '/v1/customers/{id}': { ...current.paths['/v1/customers/{id}'], post: { 'x-since-version': '2025-10-01', responses: { 200: body('CustomerResponse') } } },
      },
      components: { schemas: { ...current.components!.schemas, PrepaidWalletResponse: closed({ id: { type: 'string' }, object: { type: 'string', enum: ['wallet'] } }) } },
    } as unknown as OpenAPIObject;
    const before = documentInVersion(withWallets, '2025-04-01');
    expect(Object.keys(before.paths).sort()).toEqual(['/v1/customers/{id}', '/v1/invoices']);
    expect(Object.keys(before.paths['/v1/customers/{id}'])).toEqual(['get']);
    expect(before.components!.schemas!.PrepaidWalletResponse).toBeUndefined();
    const since = documentInVersion(withWallets, '2025-10-01');
    expect(Object.keys(since.paths).sort()).toEqual(['/v1/customers/{id}', '/v1/invoices', '/v1/wallets/{id}']);
    expect(Object.keys(since.paths['/v1/customers/{id}'])).toEqual(['get', 'post']);
  });
});
