import type { RateLimitGroup } from '../auth/api-key-directory';

export interface RequestCost {
  group: RateLimitGroup;
  /** Units taken from the group's bucket. */
  cost: number;
}

const MONEY_RESOURCES = new Set(['payments', 'refunds', 'payouts']);
/** A usage batch costs one unit per started hundred events. */
const EVENTS_PER_UNIT = 100;
/** Usage ingestion, and its batch action: `/v1/usage` and `/v1/track`, the integration guide's name for it. */
const USAGE_RESOURCES: ReadonlyMap<string, string> = new Map([
  ['usage', 'batch'],
  ['track', 'bulk'],
]);

/**
 * The bucket a `/v1` request draws from, and how much: admin routes form their own group whatever
 * the method; usage ingestion (`/v1/usage`, `/v1/track`) and money-moving POSTs have theirs; other GETs are reads and the
 * rest writes. Routing ignores case and a trailing slash, so classification does too.
 */
export function classifyRequest(method: string, path: string, body: unknown): RequestCost {
  const [, resource, action] = path.toLowerCase().split('/').filter((segment) => segment !== '');
  const verb = method.toUpperCase();
  if (resource === 'admin') return { group: 'admin', cost: 1 };
  if (verb === 'POST' && USAGE_RESOURCES.has(resource)) return { group: 'usage', cost: action === USAGE_RESOURCES.get(resource) ? batchCost(body) : 1 };
  if (verb === 'POST' && MONEY_RESOURCES.has(resource)) return { group: 'money', cost: 1 };
  if (verb === 'GET' || verb === 'HEAD') return { group: 'read', cost: 1 };
  return { group: 'write', cost: 1 };
}

/** ceil(events / 100), at least 1; a body without an `events` list costs 1 (validation refuses it later). */
function batchCost(body: unknown): number {
  const events = (body as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? Math.max(1, Math.ceil(events.length / EVENTS_PER_UNIT)) : 1;
}
