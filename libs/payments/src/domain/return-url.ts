import { absoluteHttpUrl, DomainError } from '@tally/kernel';

const MAX_RETURN_URL_LENGTH = 2048;

/**
 * A payment's `return_url` (Stripe's name): the merchant's page that the hosted action page sends
 * the customer back to. An absolute http(s) URL without credentials, of at most 2048 characters,
 * kept as the URL standard writes it, so that it is always a safe `Location`.
 */
export function parseReturnUrl(text: string): string {
  const url = text.length <= MAX_RETURN_URL_LENGTH ? absoluteHttpUrl(text) : undefined;
  if (url) return url.href;
  const message = `an absolute http or https URL without credentials, of at most ${MAX_RETURN_URL_LENGTH} characters`;
  throw DomainError.invalid('payment.invalid_return_url', `return_url is ${message}`, [{ field: 'return_url', code: 'payment.invalid_return_url', message }]);
}

/**
 * Where the customer lands once the action is answered: the return URL with `payment_id` appended
 * to its query (Stripe appends `payment_intent`), the rest of the URL as the merchant gave it.
 */
export function returnTarget(returnUrl: string, paymentId: string): string {
  const url = new URL(returnUrl);
  const parameter = `payment_id=${encodeURIComponent(paymentId)}`;
  url.search = url.search ? `${url.search}&${parameter}` : parameter;
  return url.href;
}
