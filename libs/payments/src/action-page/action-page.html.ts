import { returnTarget } from '../domain/return-url';
import type { PaymentResource } from '../payment.view';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const OUTCOMES: Partial<Record<PaymentResource['status'], string>> = {
  succeeded: 'Payment authenticated. The payment succeeded; you can close this page.',
  processing: 'Payment authenticated. The payment is being processed; you can close this page.',
  failed: 'Authentication failed. The payment was not made.',
  canceled: 'This payment was canceled.',
};

/** Where a page is: its absolute URL under the public URL, and the signed link's query string, which every step of the page carries on. */
export interface ActionPageAddress {
  url: string;
  query: string;
}

/**
 * Where the customer goes once they answered: the merchant's return URL with the payment's id,
 * else back to the page, which shows the outcome.
 */
export const afterAnswer = (payment: PaymentResource, page: ActionPageAddress): string => (payment.return_url ? returnTarget(payment.return_url, payment.id) : `${page.url}?${page.query}`);

/**
 * The page's Content-Security-Policy: no script, and forms that lead only to the page itself and
 * on to the merchant's return URL (a browser holds a form's redirect to `form-action` too).
 */
export function actionPagePolicy(payment: PaymentResource): string {
  const formTargets = ["'self'", ...(payment.return_url ? [new URL(payment.return_url).origin] : [])].join(' ');
  return `default-src 'none'; style-src 'unsafe-inline'; form-action ${formTargets}; frame-ancestors 'none'`;
}

/**
 * The hosted authentication page of a payment, rendered on the server (no script): the merchant,
 * the amount and currency, and, while the payment waits, the two answers the sandbox offers in
 * place of a card issuer's challenge; once answered, the outcome and the way back to the merchant.
 */
export function actionPageHtml(merchant: string, payment: PaymentResource, page: ActionPageAddress): string {
  const waiting = payment.status === 'requires_action';
  const form = (answer: 'complete' | 'fail', id: string, label: string) =>
    `<form method="post" action="${escape(`${page.url}/${answer}?${page.query}`)}"><button type="submit" id="${id}">${label}</button></form>`;
  const back = payment.return_url ? `\n    <p><a id="return" href="${escape(afterAnswer(payment, page))}">Return to ${escape(merchant)}</a></p>` : '';
  const body = waiting
    ? `<p>Confirm this payment with your card issuer.</p>
    ${form('complete', 'authenticate', 'Authenticate payment')}
    ${form('fail', 'fail', 'Fail authentication')}`
    : `<p id="outcome">${escape(OUTCOMES[payment.status] ?? `This payment is ${payment.status}.`)}</p>${back}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Authenticate your payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{display:inline-block;margin-right:.5rem}.amount{font-size:1.6rem;font-weight:600}</style></head>
<body>
  <h1>Authenticate your payment</h1>
  <p id="merchant">${escape(merchant)}</p>
  <p class="amount" id="amount">${escape(payment.amount)} ${escape(payment.currency)}</p>
  ${body}
</body>
</html>`;
}
