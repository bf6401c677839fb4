export * from './rate-limits.module';
export * from './rate-limit-store';
export * from './rate-limit-policy';
export type { LimitWindow, RateLimitDecision } from './sliding-window';
