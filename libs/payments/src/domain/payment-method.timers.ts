import type { AggregateTimers } from '@tally/kernel';
import { expiringNoticeAt } from './card-expiry';
import type { PaymentMethodCommand } from './payment-method.decider';
import type { PaymentMethodEvent } from './payment-method.events';

/**
 * A card's two timers, on its customer's clock: `expiring` 30 days before the card expires and
 * `expired` when it does. Detaching the card, or its expiry, cancels what is left of them.
 */
export const paymentMethodTimers: AggregateTimers<PaymentMethodCommand, PaymentMethodEvent> = (event) => {
  switch (event.type) {
    case 'PaymentMethodAttached': {
      const { payment_method_id, expires_at } = event.data;
      if (expires_at === null) return [];
      return [
        { schedule: { name: `expiring:${expires_at}`, due_at: expiringNoticeAt(expires_at), command: { type: 'MarkPaymentMethodExpiring', data: { payment_method_id, expires_at } } } },
        { schedule: { name: `expired:${expires_at}`, due_at: expires_at, command: { type: 'MarkPaymentMethodExpired', data: { payment_method_id, expires_at } } } },
      ];
    }
    case 'PaymentMethodExpiring':
      return [{ cancel: `expiring:${event.data.expires_at}` }];
    case 'PaymentMethodExpired':
    case 'PaymentMethodDetached':
      return [{ cancelEvery: '' }];
    case 'PaymentMethodUpdated':
    case 'PaymentMethodVerificationStarted':
    case 'PaymentMethodVerified':
      return [];
  }
};
