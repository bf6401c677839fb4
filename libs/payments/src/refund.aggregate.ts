import type { AggregateDefinition } from '@tally/runtime';
import { refundDecider, refundNotFound, type RefundCommand, type RefundState } from './domain/refund.decider';
import type { RefundEvent } from './domain/refund.events';
import { refundView, type RefundResource } from './refund.view';

/** The spec's identifier prefix of refunds. */
export const REFUND_ID_PREFIX = 'rfd';

export const refundAggregate: AggregateDefinition<RefundState, RefundCommand, RefundEvent, RefundResource> = {
  type: 'refund',
  decider: refundDecider,
  view: refundView,
  notFound: refundNotFound,
};
