import type { AggregateDefinition } from '@tally/runtime';
import { paymentMethodDecider, paymentMethodNotFound, type PaymentMethodCommand, type PaymentMethodState } from './domain/payment-method.decider';
import type { PaymentMethodEvent } from './domain/payment-method.events';
import { paymentMethodTimers } from './domain/payment-method.timers';
import { paymentMethodView, type PaymentMethodResource } from './payment-method.view';

export const paymentMethodAggregate: AggregateDefinition<PaymentMethodState, PaymentMethodCommand, PaymentMethodEvent, PaymentMethodResource> = {
  type: 'payment_method',
  decider: paymentMethodDecider,
  view: paymentMethodView,
  notFound: paymentMethodNotFound,
  timers: paymentMethodTimers,
};
