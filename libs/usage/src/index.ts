export * from './domain/usage.events';
export * from './usage-ingest';
export * from './usage.projection';
export * from './metered-usage.readings';
export * from './usage.controller';
export * from './usage.module';
export * from './usage.context';
