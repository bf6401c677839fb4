export * from './idempotency-store.port';
export * from './idempotency-key';
export * from './idempotency.interceptor';
export * from './sqlite-idempotency-store';
export * from './mongo-idempotency-store';
export * from './sealed-idempotency-store';
