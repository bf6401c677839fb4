import { resourceProjection } from '@tally/runtime';
import { PAYMENT_INDEXES } from './payment.queries';
import { paymentView } from './payment.view';

/** The payments read model and the payments' entries in the public event log. */
export const paymentProjection = resourceProjection(paymentView, PAYMENT_INDEXES);
