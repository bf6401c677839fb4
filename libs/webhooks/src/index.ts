export * from './domain/event-types';
export * from './domain/retry-schedule';
export * from './delivery/signature';
export { PER_ENDPOINT_CONCURRENCY } from './delivery/webhook-dispatcher';
export * from './outbox/outbox-documents';
export * from './webhook-endpoint.view';
export * from './webhooks.context';
