import { DomainError } from '@tally/kernel';
import { parseReturnUrl, returnTarget } from './return-url';

const refusal = (text: string): string | undefined => {
  try {
    parseReturnUrl(text);
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? `${error.kind} ${error.code} ${error.fields.map((field) => field.field).join()}` : String(error);
  }
};

describe('a payment’s return URL', () => {
  it('takes an absolute http or https URL, written as the URL standard writes it', () => {
    expect(parseReturnUrl('https://shop.example/orders/7/paid?step=3ds#top')).toBe('https://shop.example/orders/7/paid?step=3ds#top');
    expect(parseReturnUrl('http://localhost:8080')).toBe('http://localhost:8080/');
    expect(parseReturnUrl('HTTPS://Shop.Example/a b')).toBe('https://shop.example/a%20b');
  });

  it('refuses anything else, naming the field', () => {
    const refused = ['/paid', 'shop.example/paid', 'javascript:alert(1)', 'ftp://shop.example/', 'data:text/html,hi', 'https://user:secret@shop.example/', '', `https://shop.example/${'a'.repeat(2048)}`];
    for (const text of refused) expect([text, refusal(text)]).toEqual([text, 'invalid payment.invalid_return_url return_url']);
  });

  it('sends the customer back with the payment id appended to the query, the rest as given', () => {
    expect(returnTarget('https://shop.example/paid', 'pay_1')).toBe('https://shop.example/paid?payment_id=pay_1');
    expect(returnTarget('https://shop.example/paid?order=7&note=a%20b#done', 'pay_1')).toBe('https://shop.example/paid?order=7&note=a%20b&payment_id=pay_1#done');
  });
});
