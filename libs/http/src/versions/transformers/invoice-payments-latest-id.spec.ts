import { invoicePaymentsLatestId } from './invoice-payments-latest-id';

describe('invoice-payments-latest-id (2026-04-01 → 2025-10-01)', () => {
  it('serves the latest payment id in place of the list of payment ids', () => {
    const invoice = { id: 'inv_1', object: 'invoice', payments: ['pay_1', 'pay_2', 'pay_3'], total: '10.00' };
    expect(invoicePaymentsLatestId.transform(invoice)).toEqual({ id: 'inv_1', object: 'invoice', payments: 'pay_3', total: '10.00' });
    expect(invoice.payments).toEqual(['pay_1', 'pay_2', 'pay_3']);
  });

  it('serves null for an invoice without payments', () => {
    expect(invoicePaymentsLatestId.transform({ id: 'inv_1', object: 'invoice', payments: [] })).toEqual({ id: 'inv_1', object: 'invoice', payments: null });
  });

  it('leaves attributes without payments as they are', () => {
    const previous = { status: 'open' };
    expect(invoicePaymentsLatestId.transform(previous)).toBe(previous);
  });
});

describe('invoice-payments-latest-id in the API document', () => {
  it('describes payments as one payment id or null', () => {
    const invoice = { type: 'object', properties: { id: { type: 'string' }, payments: { type: 'array', items: { type: 'string' } } }, required: ['id', 'payments'] };
    expect(invoicePaymentsLatestId.transformSchema(invoice, () => ({}))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, payments: { type: ['string', 'null'], description: expect.any(String), example: expect.stringMatching(/^pay_/) } },
      required: ['id', 'payments'],
    });
    expect(invoice.properties.payments).toEqual({ type: 'array', items: { type: 'string' } });
  });
});
