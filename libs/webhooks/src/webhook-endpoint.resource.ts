import { defineResource, scopedIndex } from '@tally/runtime';
import { WEBHOOK_ENDPOINT_STATUSES } from './dto/webhook-endpoint.dto';
import { webhookEndpointAggregate } from './webhook-endpoint.aggregate';

/** Webhook endpoints through the API (never their secrets): their read model, retrieve (with `as_of`) and list. */
export const webhookEndpointResource = defineResource({
  aggregate: webhookEndpointAggregate,
  indexes: [scopedIndex('created_at')],
  list: { sortable: ['created_at'], filters: { status: { ops: ['eq'], values: WEBHOOK_ENDPOINT_STATUSES } } },
});
