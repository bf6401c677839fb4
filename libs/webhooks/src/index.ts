export * from './domain/event-types';
export * from './domain/retry-schedule';
export * from './delivery/signature';
export * from './outbox/outbox-documents';
export * from './webhook-endpoint.view';
export * from './webhooks.context';
