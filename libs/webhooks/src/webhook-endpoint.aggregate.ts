import type { AggregateDefinition } from '@tally/runtime';
import { webhookEndpointDecider, webhookEndpointNotFound, type WebhookEndpointCommand, type WebhookEndpointState } from './domain/webhook-endpoint.decider';
import type { WebhookEndpointEvent } from './domain/webhook-endpoint.events';
import { webhookEndpointView, type WebhookEndpointResource } from './webhook-endpoint.view';

export const webhookEndpointAggregate: AggregateDefinition<WebhookEndpointState, WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointResource> = {
  type: webhookEndpointView.aggregateType,
  decider: webhookEndpointDecider,
  view: webhookEndpointView,
  notFound: webhookEndpointNotFound,
};
