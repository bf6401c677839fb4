import { invoiceTaxOmittedWhenZero } from './invoice-tax-omitted-when-zero';

describe('invoice-tax-omitted-when-zero (2025-04-01 → 2024-10-01)', () => {
  it.each(['0', '0.00', '0.00000000'])('omits a zero-filled tax (%s)', (tax) => {
    const invoice = { id: 'inv_1', object: 'invoice', subtotal: '10.00', tax, total: '10.00' };
    expect(invoiceTaxOmittedWhenZero.transform(invoice)).toEqual({ id: 'inv_1', object: 'invoice', subtotal: '10.00', total: '10.00' });
    expect(invoice.tax).toBe(tax);
  });

  it('keeps a tax that is not zero', () => {
    const invoice = { id: 'inv_1', object: 'invoice', subtotal: '10.00', tax: '2.10', total: '12.10' };
    expect(invoiceTaxOmittedWhenZero.transform(invoice)).toBe(invoice);
  });

  it('leaves attributes without tax as they are', () => {
    const previous = { status: 'draft' };
    expect(invoiceTaxOmittedWhenZero.transform(previous)).toBe(previous);
  });
});

describe('invoice-tax-omitted-when-zero in the API document', () => {
  it('makes tax optional, and says when it is left out', () => {
    const invoice = { type: 'object', properties: { id: { type: 'string' }, tax: { type: 'string', example: '2.10' } }, required: ['id', 'tax'] };
    expect(invoiceTaxOmittedWhenZero.transformSchema(invoice, () => ({}))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, tax: { type: 'string', example: '2.10', description: 'Left out when the invoice has no tax' } },
      required: ['id'],
    });
    expect(invoice.required).toEqual(['id', 'tax']);
  });
});
