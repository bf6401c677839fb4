import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { signatureHeaderValue } from './signature';

const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { id: 'inv_1', amount_due: '10.00' } });
const secret = 'whsec_first';
const t = 1_767_225_600;

describe('webhook signature', () => {
  it('is t and the hex HMAC-SHA-256 of "<t>.<body>"', () => {
    expect(signatureHeaderValue([secret], t, body)).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
  });

  it('carries one v1 per secret, in order', () => {
    const [, first, second] = signatureHeaderValue([secret, 'whsec_second'], t, body).split(',');
    expect(first).toBe(signatureHeaderValue([secret], t, body).split(',')[1]);
    expect(second).toBe(signatureHeaderValue(['whsec_second'], t, body).split(',')[1]);
  });

  it('is verified by Stripe’s own library with either secret', () => {
    const stripe = new Stripe('sk_test_unused');
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeaderValue([secret, 'whsec_second'], now, body);
    expect(stripe.webhooks.constructEvent(body, header, secret).id).toBe('evt_1');
    expect(stripe.webhooks.constructEvent(body, header, 'whsec_second').id).toBe('evt_1');
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_other')).toThrow(/signature/i);
    expect(() => stripe.webhooks.constructEvent(`${body} `, header, secret)).toThrow(/signature/i);
  });
});
