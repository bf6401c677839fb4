/**
 * Public event types that exist from an API version on (the versions' changelog). The one answer
 * to "does event type T exist in version V", for webhook deliveries and endpoints' filters as for
 * the event log: a version before `since` never shows them. Versions are dates, so they compare
 * as strings.
 */
export const EVENT_TYPES_INTRODUCED: readonly { prefix: string; since: string }[] = [{ prefix: 'wallet.', since: '2025-10-01' }];

export const existsInVersion = (type: string, apiVersion: string): boolean =>
  !EVENT_TYPES_INTRODUCED.some(({ prefix, since }) => type.startsWith(prefix) && apiVersion < since);
