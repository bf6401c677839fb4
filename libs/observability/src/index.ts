export * from './json-log';
export * from './nest-json-logger';
export * from './process-metrics';
export * from './prometheus-text';
export * from './tally-metrics';
