export * from './domain/tenant.events';
export * from './domain/tenant.decider';
export * from './tenant.aggregate';
export * from './tenant-directory.projection';
export * from './tenant-administration';
export * from './audit-log.projection';
export * from './tenant.view';
export * from './tenancy.module';
