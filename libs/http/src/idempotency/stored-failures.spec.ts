import { problemBody } from '../problems/problem';
import { isStoredFailure } from './stored-failures';

describe('isStoredFailure', () => {
  it.each([
    [404, 'customer.not_found'],
    [409, 'tax_id.already_exists'],
    [412, 'request.precondition_failed'],
    [422, 'usage.meter_not_on_subscription'],
    [500, 'internal.error'],
  ])('keeps %i %s, an answer of the endpoint', (status, code) => {
    expect(isStoredFailure(problemBody(status, code, '', null))).toBe(true);
  });

  it.each([
    [400, 'request.invalid_body'],
    [400, 'money.invalid_amount'],
    [429, 'rate_limit.exceeded'],
    [409, 'request.concurrent_update'],
  ])('frees the key after %i %s, a refusal before anything ran', (status, code) => {
    expect(isStoredFailure(problemBody(status, code, '', null))).toBe(false);
  });
});
