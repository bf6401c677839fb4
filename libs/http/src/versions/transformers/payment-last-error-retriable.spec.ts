import { paymentLastErrorRetriable } from './payment-last-error-retriable';

const failedPayment = {
  id: 'pay_1',
  object: 'payment',
  status: 'failed',
  last_error: { code: 'card_declined', decline_code: 'insufficient_funds', provider_message: 'Declined', user_message: 'Your card was declined', is_retriable: true, retriable_after: '2026-05-02T10:00:00.000Z' },
};

describe('payment-last-error-retriable (2026-04-01 → 2025-10-01)', () => {
  it('renames last_error.is_retriable to retriable and keeps every other field', () => {
    expect(paymentLastErrorRetriable.transform(failedPayment)).toEqual({
      id: 'pay_1',
      object: 'payment',
      status: 'failed',
      last_error: { code: 'card_declined', decline_code: 'insufficient_funds', provider_message: 'Declined', user_message: 'Your card was declined', retriable: true, retriable_after: '2026-05-02T10:00:00.000Z' },
    });
  });

  it('keeps the value false', () => {
    const result = paymentLastErrorRetriable.transform({ ...failedPayment, last_error: { code: 'card_declined', is_retriable: false } });
    expect(result.last_error).toEqual({ code: 'card_declined', retriable: false });
  });

  it('leaves a payment without an error as it is', () => {
    const succeeded = { id: 'pay_2', object: 'payment', status: 'succeeded', last_error: null };
    expect(paymentLastErrorRetriable.transform(succeeded)).toBe(succeeded);
  });

  it('rewrites partial attributes (an event’s previous_attributes) that hold last_error', () => {
    expect(paymentLastErrorRetriable.transform({ last_error: { is_retriable: true } })).toEqual({ last_error: { retriable: true } });
  });

  it('does not touch its input', () => {
    const input = structuredClone(failedPayment);
    paymentLastErrorRetriable.transform(input);
    expect(input).toEqual(failedPayment);
  });
});

describe('payment-last-error-retriable in the API document', () => {
  const paymentError = { type: 'object', properties: { code: { type: 'string' }, is_retriable: { type: 'boolean' } }, required: ['code', 'is_retriable'] };
  const resolve = (node: object) => ('$ref' in node && node.$ref === '#/components/schemas/PaymentErrorResponse' ? paymentError : (node as never));

  it('renames is_retriable to retriable in the error a nullable last_error refers to, in place of the reference', () => {
    const payment = { type: 'object', properties: { id: { type: 'string' }, last_error: { description: 'd', anyOf: [{ $ref: '#/components/schemas/PaymentErrorResponse' }, { type: 'null' }] } } };
    expect(paymentLastErrorRetriable.transformSchema(payment, resolve)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        last_error: { description: 'd', anyOf: [{ type: 'object', properties: { code: { type: 'string' }, retriable: { type: 'boolean' } }, required: ['code', 'retriable'] }, { type: 'null' }] },
      },
    });
    expect(paymentError.properties).toHaveProperty('is_retriable');
  });

  it('leaves a payment schema without last_error as it is', () => {
    const payment = { type: 'object', properties: { id: { type: 'string' } } };
    expect(paymentLastErrorRetriable.transformSchema(payment, resolve)).toBe(payment);
  });
});
