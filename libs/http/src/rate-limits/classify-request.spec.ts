import fc from 'fast-check';
import { classifyRequest } from './classify-request';

describe('classifyRequest', () => {
  it.each([
    ['GET', '/v1/customers', 'read'],
    ['HEAD', '/v1/customers/cus_1', 'read'],
    ['GET', '/v1/payments/pay_1', 'read'],
    ['POST', '/v1/customers', 'write'],
    ['PATCH', '/v1/customers/cus_1', 'write'],
    ['DELETE', '/v1/customers/cus_1', 'write'],
    ['POST', '/v1/invoices/in_1/pay', 'write'],
    ['POST', '/v1/payments/pay_1/cancel', 'money'],
    ['POST', '/v1/payments/pay_1/refunds', 'money'],
    ['POST', '/v1/refunds/re_1', 'money'],
    ['POST', '/v1/payouts/batches', 'money'],
    ['POST', '/v1/usage', 'usage'],
    ['POST', '/v1/track', 'usage'],
    ['GET', '/v1/usage', 'read'],
    ['GET', '/v1/admin/audit-log', 'admin'],
    ['POST', '/v1/admin/webhook-endpoints', 'admin'],
    ['GET', '/V1/Admin/audit-log/', 'admin'],
    ['post', '/v1/Payments/pay_1/cancel/', 'money'],
  ])('%s %s draws one unit from the %s bucket', (method, path, group) => {
    expect(classifyRequest(method, path, undefined)).toEqual({ group, cost: 1 });
  });

  it('charges a usage batch one unit per started hundred events', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (events) => {
        const body = { events: Array.from({ length: events }, (_, i) => ({ external_id: `e${i}` })) };
        expect(classifyRequest('POST', '/v1/usage/batch', body)).toEqual({ group: 'usage', cost: Math.ceil(events / 100) });
      }),
    );
    expect(classifyRequest('POST', '/v1/usage/batch', { events: Array(100) }).cost).toBe(1);
    expect(classifyRequest('POST', '/v1/usage/batch', { events: Array(101) }).cost).toBe(2);
    expect(classifyRequest('POST', '/v1/track/bulk', { events: Array(1000) }).cost).toBe(10);
  });

  it.each([
    ['no body', undefined],
    ['no events', {}],
    ['events that are not a list', { events: 'many' }],
    ['an empty list', { events: [] }],
  ])('charges a usage batch with %s one unit', (_name, body) => {
    expect(classifyRequest('POST', '/v1/usage/batch', body)).toEqual({ group: 'usage', cost: 1 });
  });
});
