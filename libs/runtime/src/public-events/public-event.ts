import { isDeepStrictEqual } from 'node:util';
import type { RecordedEvent } from '@tally/eventstore';
import type { ResourceDoc } from './resource-view';

export const PUBLIC_EVENTS = 'events';

/**
 * The `schema_version` of the public envelope (the spec's "currently 1"). It versions what API
 * clients and webhooks receive, not the stored event's payload, which upcasters version apart.
 */
export const PUBLIC_SCHEMA_VERSION = 1;

/** An entry of the public event log behind GET /v1/events and the webhook outbox. */
export interface PublicEventDoc {
  [field: string]: unknown;
  id: string;
  object: 'event';
  type: string;
  occurred_at: string;
  created_at: string;
  schema_version: number;
  tenant_id: string;
  environment: string;
  aggregate_type: string;
  aggregate_id: string;
  /** Position of the aggregate's event inside its stream: consumers order one aggregate's events by it. */
  sequence: number;
  data: ResourceDoc;
  previous_attributes?: Record<string, unknown>;
  request: { id: string | null };
}

export const publicEventId = (event: Pick<RecordedEvent, 'id'>): string => `evt_${event.id}`;

/** The old values of the top-level fields that changed (Stripe's `previous_attributes`). */
export function previousAttributes(before: ResourceDoc, after: ResourceDoc): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  // A fold shares what an event left alone with the state before it, so most fields are the same object.
  const differs = (field: string) => before[field] !== after[field] && !isDeepStrictEqual(before[field], after[field]);
  for (const field of Object.keys(after)) if (differs(field)) changed[field] = before[field] ?? null;
  for (const field of Object.keys(before)) if (!Object.hasOwn(after, field) && differs(field)) changed[field] = before[field] ?? null;
  return changed;
}
