import type { Environment } from '@tally/cells';
import type { RaisedLimits, RateLimitGroup } from '../auth/api-key-directory';
import { SLOT_MS, type LimitWindow } from './sliding-window';

/** The spec's live limits, in cost units per second. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitGroup, number>> = {
  read: 1000,
  write: 200,
  money: 100,
  usage: 5000,
  admin: 50,
};

/** Sandbox limits are a tenth of live ones (rounded down, at least 1). */
const SANDBOX_DIVISOR = 10;
/** The short window admits a burst of this many seconds' worth at once. */
const BURST_SECONDS = 2;
/** The long window holds the sustained rate over this many seconds. */
const SUSTAINED_SECONDS = 10;

/** The per-second limit of a group: the tenant's raised live limit or the default, a tenth of it in sandbox. */
export function perSecondLimit(group: RateLimitGroup, environment: Environment, raised: RaisedLimits = {}): number {
  const live = raised[group] ?? DEFAULT_RATE_LIMITS[group];
  return environment === 'live' ? live : Math.max(1, Math.floor(live / SANDBOX_DIVISOR));
}

/** A 1-second window that admits a burst of twice the rate, and a 10-second window that holds the rate itself. */
export function windowsFor(perSecond: number): readonly LimitWindow[] {
  const second = 1000 / SLOT_MS;
  return [
    { slots: second, budget: BURST_SECONDS * perSecond },
    { slots: SUSTAINED_SECONDS * second, budget: SUSTAINED_SECONDS * perSecond },
  ];
}
