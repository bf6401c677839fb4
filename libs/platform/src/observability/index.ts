export * from './json-log';
export * from './nest-json-logger';
export * from './http-telemetry.middleware';
export * from './tally-metrics';
export * from './timed-event-store';
export * from './observability.module';
