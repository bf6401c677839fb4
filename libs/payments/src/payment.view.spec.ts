import type { HistoryEvent } from '@tally/runtime';
import type { PaymentCreated } from './domain/payment.events';
import { paymentView } from './payment.view';

const metadata = { tenant_id: 'ten_1', environment: 'sandbox' as const, actor: 'test', request_id: null, causation_id: null, correlation_id: null, schema_version: 1, occurred_at: '2026-05-01T10:00:00.000Z' };
const stored = (event: PaymentCreated): PaymentCreated & HistoryEvent => ({ ...event, id: 'e0', stream: 'payment-pay_1', revision: 0, metadata });

/** A PaymentCreated as it was stored before payments had a return URL. */
const before: PaymentCreated['data'] = {
  payment_id: 'pay_1',
  invoice_id: 'inv_1',
  customer_id: 'cus_1',
  subscription_id: null,
  payment_method_id: 'pm_1',
  provider: 'sandbox',
  provider_ref: 'sbx_pm_1',
  amount: '49.00',
  currency: 'EUR',
  reason: 'manual',
  dunning: null,
};

describe('the payment view’s return URL', () => {
  it('is the one the payer gave', () => {
    const payment = paymentView.apply(undefined, stored({ type: 'PaymentCreated', data: { ...before, return_url: 'https://shop.example/paid' } }));
    expect(payment?.return_url).toBe('https://shop.example/paid');
  });

  it('is null on a payment stored before return URLs existed', () => {
    expect(paymentView.apply(undefined, stored({ type: 'PaymentCreated', data: before }))?.return_url).toBeNull();
  });
});
