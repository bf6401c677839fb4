export * from './lease-store.port';
export * from './leases';
export * from './lease-fence';
export * from './leased-runner';
export * from './fenced-read-store';
export * from './memory-lease-store';
export * from './mongo-lease-store';
