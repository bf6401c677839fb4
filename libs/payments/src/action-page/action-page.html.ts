import type { PaymentResource } from '../payment.view';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const OUTCOMES: Partial<Record<PaymentResource['status'], string>> = {
  succeeded: 'Payment authenticated. The payment succeeded; you can close this page.',
  processing: 'Payment authenticated. The payment is being processed; you can close this page.',
  failed: 'Authentication failed. The payment was not made.',
  canceled: 'This payment was canceled.',
};

/**
 * The hosted authentication page of a payment, rendered on the server (no script): the merchant,
 * the amount and currency, and, while the payment waits, the two answers the sandbox offers in
 * place of a card issuer's challenge. `query` is the signed link's, repeated on the form's action.
 */
export function actionPageHtml(merchant: string, payment: PaymentResource, query: string): string {
  const waiting = payment.status === 'requires_action';
  const body = waiting
    ? `<p>Confirm this payment with your card issuer.</p>
    <form method="post" action="/payment-actions/${encodeURIComponent(payment.id)}/complete?${escape(query)}"><button type="submit" id="authenticate">Authenticate payment</button></form>
    <form method="post" action="/payment-actions/${encodeURIComponent(payment.id)}/fail?${escape(query)}"><button type="submit" id="fail">Fail authentication</button></form>`
    : `<p id="outcome">${escape(OUTCOMES[payment.status] ?? `This payment is ${payment.status}.`)}</p>`;
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
