export * from './domain/tenant.events';
export * from './domain/tenant.decider';
export * from './tenant.aggregate';
export * from './tenant-directory.projection';
export * from './tenant-bootstrap';
