import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { paymentMethodDecider, type AttachPaymentMethod } from './payment-method.decider';
import type { PaymentMethodAttached } from './payment-method.events';
import { paymentMethodTimers } from './payment-method.timers';

const spec = DeciderSpecification.for(paymentMethodDecider, paymentMethodTimers);
const payment_method_id = 'pm_01JMETHOD0000000000000000';
const customer_id = 'cus_01JCUSTOMER00000000000000';
const EXPIRES = '2026-12-01T00:00:00.000Z';
const NOW = '2026-05-01T00:00:00.000Z';

const attach: AttachPaymentMethod = {
  type: 'AttachPaymentMethod',
  data: {
    payment_method_id,
    customer_id,
    type: 'card',
    provider: 'sandbox',
    provider_ref: 'sbx_pm_1',
    card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2026, country: 'US', funding: 'credit' },
    bank_account: null,
    wallet: null,
    verified: false,
    expires_at: EXPIRES,
    billing_address: null,
    metadata: {},
    set_as_default: false,
  },
};
const attached: PaymentMethodAttached = { type: 'PaymentMethodAttached', data: attach.data };
const expiring = { type: 'MarkPaymentMethodExpiring' as const, data: { payment_method_id, expires_at: EXPIRES } };
const expired = { type: 'MarkPaymentMethodExpired' as const, data: { payment_method_id, expires_at: EXPIRES } };

describe('the payment method’s timers', () => {
  it('a card sets a timer 30 days before it expires and one when it does, each its own command', () =>
    spec.given([]).when(attach).thenTimers(NOW, [
      { schedule: { name: `expiring:${EXPIRES}`, due_at: '2026-11-01T00:00:00.000Z', command: expiring } },
      { schedule: { name: `expired:${EXPIRES}`, due_at: EXPIRES, command: expired } },
    ]));

  it('a method that does not expire sets none', () => spec.given([]).when({ ...attach, data: { ...attach.data, type: 'bank_account', card: null, expires_at: null } }).thenTimers(NOW, []));

  it('the notice, fired, ends its own timer; the expiry ends what is left', () => {
    spec.given([attached]).when(expiring).thenTimers('2026-11-01T00:00:00.000Z', [{ cancel: `expiring:${EXPIRES}` }]);
    spec.given([attached]).when(expired).thenTimers(EXPIRES, [{ cancelEvery: '' }]);
  });

  it('detaching the card cancels both', () => spec.given([attached]).when({ type: 'DetachPaymentMethod', data: { payment_method_id } }).thenTimers(NOW, [{ cancelEvery: '' }]));

  it('a notice or an expiry that comes again, or after a detach, decides nothing', () => {
    spec.given([attached, { type: 'PaymentMethodExpiring', data: { payment_method_id, customer_id, expires_at: EXPIRES } }]).when(expiring).thenNothingHappens();
    spec.given([attached, { type: 'PaymentMethodDetached', data: { payment_method_id, customer_id } }]).when(expired).thenNothingHappens();
  });
});
