import { looksLikeCardNumber } from './card-number';

describe('looksLikeCardNumber', () => {
  it.each([
    ['4242 4242 4242 4242', true],
    ['4242-4242-4242-4242', true],
    ['4242424242424242', true],
    ['4222222222222', true],
    ['6011000990139424009', true],
    ['4242424242424241', false],
    // Both pass Luhn: only their length rules them out.
    ['424242424242', false],
    ['42424242424242424242', false],
    ['tok_visa', false],
    ['', false],
  ])('%p → %p', (value, expected) => {
    expect(looksLikeCardNumber(value)).toBe(expected);
  });
});
