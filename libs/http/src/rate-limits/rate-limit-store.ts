import type { RateLimitDecision, LimitWindow } from './sliding-window';

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

/**
 * Where buckets live: in this process (one API instance) or in a shared database (several). A take
 * is atomic per bucket: it takes `cost` units when every window has room for them, and nothing
 * otherwise. Both adapters pass the contract suite in testing/rate-limit-store.contract.ts.
 */
export interface RateLimitStore {
  take(bucket: string, cost: number, windows: readonly LimitWindow[], now: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}
