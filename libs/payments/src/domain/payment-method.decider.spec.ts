import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { paymentMethodDecider, type AttachPaymentMethod } from './payment-method.decider';
import type { PaymentMethodAttached, PaymentMethodEvent } from './payment-method.events';
import { paymentMethodTimers } from './payment-method.timers';

const spec = DeciderSpecification.for(paymentMethodDecider);
const id = 'pm_01JMETHOD0000000000000000';
const customer_id = 'cus_01JCUSTOMER00000000000000';
const ids = { payment_method_id: id, customer_id };
const EXPIRES = '2034-12-01T00:00:00.000Z';

const attach: AttachPaymentMethod = {
  type: 'AttachPaymentMethod',
  data: {
    ...ids,
    type: 'card',
    provider: 'sandbox',
    provider_ref: 'sbx_pm_1',
    card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2034, country: 'US', funding: 'credit' },
    bank_account: null,
    wallet: null,
    verified: false,
    expires_at: EXPIRES,
    billing_address: null,
    metadata: { label: 'work' },
    set_as_default: false,
  },
};
const attached: PaymentMethodAttached = { type: 'PaymentMethodAttached', data: attach.data };
const bankAttached: PaymentMethodAttached = {
  type: 'PaymentMethodAttached',
  data: { ...attach.data, type: 'bank_account', card: null, expires_at: null, bank_account: { last4: '6789', routing: '110000000', holder: 'Jenny Rosen', status: 'new' } },
};
const detached: PaymentMethodEvent = { type: 'PaymentMethodDetached', data: ids };
const expired: PaymentMethodEvent = { type: 'PaymentMethodExpired', data: ids };

describe('payment method decider', () => {
  describe('AttachPaymentMethod', () => {
    it('attaches the method', () => spec.given([]).when(attach).then([attached]));
    it('does nothing when it is attached already (a retried attach)', () => spec.given([attached]).when(attach).thenNothingHappens());
    it('refuses over-long metadata values', () =>
      spec.given([]).when({ ...attach, data: { ...attach.data, metadata: { note: 'x'.repeat(501) } } }).thenFails('request.invalid_metadata'));
  });

  describe('UpdatePaymentMethod', () => {
    it('records the merged address and metadata, only what changes', () =>
      spec
        .given([attached])
        .when({ type: 'UpdatePaymentMethod', data: { payment_method_id: id, billing_address: { country: 'DE' }, metadata: { label: 'work', team: 'a' } } })
        .then([
          {
            type: 'PaymentMethodUpdated',
            data: { ...ids, billing_address: { line1: null, city: null, region: null, country: 'DE', postal_code: null }, metadata: { label: 'work', team: 'a' } },
          },
        ]));
    it('does nothing when nothing changes', () =>
      spec.given([attached]).when({ type: 'UpdatePaymentMethod', data: { payment_method_id: id, metadata: { label: 'work' } } }).thenNothingHappens());
    it('refuses a detached method', () =>
      spec.given([attached, detached]).when({ type: 'UpdatePaymentMethod', data: { payment_method_id: id, metadata: { a: '1' } } }).thenFails('payment_method.detached'));
    it('refuses a method that does not exist', () =>
      spec.given([]).when({ type: 'UpdatePaymentMethod', data: { payment_method_id: id, metadata: { a: '1' } } }).thenFails('payment_method.not_found'));
  });

  describe('RecordVerification', () => {
    const verified: PaymentMethodEvent = { type: 'PaymentMethodVerified', data: ids };
    const started: PaymentMethodEvent = { type: 'PaymentMethodVerificationStarted', data: { ...ids, method: 'microdeposits' } };
    it('verifies a card', () => spec.given([attached]).when({ type: 'RecordVerification', data: { payment_method_id: id, outcome: 'verified' } }).then([verified]));
    it('starts and completes the micro-deposits of a bank account', () => {
      spec.given([bankAttached]).when({ type: 'RecordVerification', data: { payment_method_id: id, outcome: 'verifying' } }).then([started]);
      spec.given([bankAttached, started]).when({ type: 'RecordVerification', data: { payment_method_id: id, outcome: 'verified' } }).then([verified]);
    });
    it('does nothing once verified', () =>
      spec.given([attached, verified]).when({ type: 'RecordVerification', data: { payment_method_id: id, outcome: 'verified' } }).thenNothingHappens());
    it('refuses an expired card', () =>
      spec.given([attached, expired]).when({ type: 'RecordVerification', data: { payment_method_id: id, outcome: 'verified' } }).thenFails('payment_method.expired'));
  });

  describe('expiry', () => {
    const expiring = { type: 'MarkPaymentMethodExpiring' as const, data: { payment_method_id: id, expires_at: EXPIRES } };
    const expire = { type: 'MarkPaymentMethodExpired' as const, data: { payment_method_id: id, expires_at: EXPIRES } };
    const noticed: PaymentMethodEvent = { type: 'PaymentMethodExpiring', data: { ...ids, expires_at: EXPIRES } };
    it('announces the expiry once', () => {
      spec.given([attached]).when(expiring).then([noticed]);
      spec.given([attached, noticed]).when(expiring).thenNothingHappens();
    });
    it('expires the card once', () => {
      spec.given([attached, noticed]).when(expire).then([expired]);
      spec.given([attached, noticed, expired]).when(expire).thenNothingHappens();
    });
    it('ignores an expiry that is not the card’s', () => spec.given([attached]).when({ ...expire, data: { ...expire.data, expires_at: '2030-01-01T00:00:00.000Z' } }).thenNothingHappens());
    it('ignores a detached card', () => spec.given([attached, detached]).when(expire).thenNothingHappens());
  });

  describe('DetachPaymentMethod', () => {
    it('detaches once', () => {
      spec.given([attached]).when({ type: 'DetachPaymentMethod', data: { payment_method_id: id } }).then([detached]);
      spec.given([attached, detached]).when({ type: 'DetachPaymentMethod', data: { payment_method_id: id } }).thenNothingHappens();
    });
    it('refuses a method that does not exist', () => spec.given([]).when({ type: 'DetachPaymentMethod', data: { payment_method_id: id } }).thenFails('payment_method.not_found'));
  });

  describe('its timers', () => {
    const timed = DeciderSpecification.for(paymentMethodDecider, paymentMethodTimers);
    const NOW = '2034-10-15T00:00:00.000Z';
    const expiring = { type: 'MarkPaymentMethodExpiring' as const, data: { payment_method_id: id, expires_at: EXPIRES } };
    const expire = { type: 'MarkPaymentMethodExpired' as const, data: { payment_method_id: id, expires_at: EXPIRES } };

    it('a card sets a timer 30 days before it expires and one when it does, each its own command', () =>
      timed.given([]).when(attach).thenTimers(NOW, [
        { schedule: { name: `expiring:${EXPIRES}`, due_at: '2034-11-01T00:00:00.000Z', command: expiring } },
        { schedule: { name: `expired:${EXPIRES}`, due_at: EXPIRES, command: expire } },
      ]));

    it('a method that does not expire sets none', () => timed.given([]).when({ ...attach, data: bankAttached.data }).thenTimers(NOW, []));

    it('the notice, fired, ends its own timer; the expiry or a detach ends what is left', () => {
      timed.given([attached]).when(expiring).thenTimers('2034-11-01T00:00:00.000Z', [{ cancel: `expiring:${EXPIRES}` }]);
      timed.given([attached]).when(expire).thenTimers(EXPIRES, [{ cancelEvery: '' }]);
      timed.given([attached]).when({ type: 'DetachPaymentMethod', data: { payment_method_id: id } }).thenTimers(NOW, [{ cancelEvery: '' }]);
    });
  });
});
