import type { AggregateDefinition } from '@tally/runtime';
import { paymentDecider, paymentNotFound, type PaymentCommand, type PaymentState } from './domain/payment.decider';
import type { PaymentEvent } from './domain/payment.events';
import { paymentView, type PaymentResource } from './payment.view';

export const paymentAggregate: AggregateDefinition<PaymentState, PaymentCommand, PaymentEvent, PaymentResource> = {
  type: 'payment',
  decider: paymentDecider,
  view: paymentView,
  notFound: paymentNotFound,
};
