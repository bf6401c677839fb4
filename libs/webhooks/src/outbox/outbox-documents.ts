import type { IndexSpec } from '@tally/readstore';
import type { WebhookEndpointStatus } from '../domain/webhook-endpoint.events';

/** Per tenant and environment: the endpoints as the outbox saw them at this point of the log, with where their secrets are. */
export const WEBHOOK_TARGETS = 'webhook_targets';
export const WEBHOOK_DELIVERIES = 'webhook_deliveries';
/** Per endpoint and aggregate: the deliveries still to make, oldest first, and when the first is due. */
export const WEBHOOK_LANES = 'webhook_lanes';

/** The due time of a lane whose first delivery goes out as soon as the dispatcher sees it. */
export const DUE_NOW = '1970-01-01T00:00:00.000Z';

/**
 * A signing secret, by the revision of the endpoint's event that holds it sealed (the dispatcher
 * opens it there); a read model written before secrets were sealed holds the secret itself,
 * until the projections are rebuilt.
 */
export type SigningSecret = ({ revision: number } | { secret: string }) & {
  /** null: the current secret. */
  expires_at: string | null;
};

export interface DeliveryTarget {
  id: string;
  url: string;
  events: readonly string[];
  status: WebhookEndpointStatus;
  api_version: string;
  /** The current secret first, then the previous one while it lives. */
  secrets: readonly SigningSecret[];
}

export interface TargetsDoc {
  [field: string]: unknown;
  id: string;
  tenant_id: string;
  environment: string;
  endpoints: readonly DeliveryTarget[];
  /** The position (as the read store encodes it) of the endpoint event that last changed them: the dispatcher follows them by it. */
  changed_at: string;
}

export const targetsId = (tenantId: string, environment: string): string => `${tenantId}/${environment}`;

export interface AttemptRecord {
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
}

export interface DeliveryDoc {
  [field: string]: unknown;
  id: string;
  object: 'webhook_delivery';
  webhook_endpoint_id: string;
  tenant_id: string;
  environment: string;
  event_id: string;
  event_type: string;
  aggregate_id: string;
  /** The event's place in its aggregate's stream. */
  sequence: number;
  /** The clock its retries are due by: `system`, or the sandbox test clock its aggregate lives on. */
  clock: string;
  /** When the outbox created it, on the log's clock. */
  created_at: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  attempts: readonly AttemptRecord[];
  first_attempted_at: string | null;
  next_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  /** The delivery whose event a replay sends again. */
  replay_of: string | null;
  /** A manual retry is one attempt: it is not retried on failure. */
  manual_retry: boolean;
  /** The delivery after this one in its lane. */
  next_in_lane: string | null;
}

export interface LaneDoc {
  [field: string]: unknown;
  id: string;
  webhook_endpoint_id: string;
  tenant_id: string;
  environment: string;
  head: string;
  tail: string;
  /** When the head is due: DUE_NOW, or a time on `clock` (its next attempt's; on a test clock also its first, see dequeue). */
  due_at: string;
  /** `system`, or the test clock of the lane's aggregate. */
  clock: string;
  /** The position (as the read store encodes it) of the event that last changed the lane: the dispatcher follows the lanes by it. */
  changed_at: string;
}

/** Lanes whose aggregate lives on no test clock. */
export const SYSTEM_CLOCK_LANES = 'system';

export const laneId = (endpointId: string, aggregateId: string): string => `${endpointId}/${aggregateId}`;

export const DELIVERY_INDEXES: readonly IndexSpec[] = [
  { fields: ['webhook_endpoint_id', 'created_at'] },
  { fields: ['webhook_endpoint_id', 'status', 'created_at'] },
  { fields: ['webhook_endpoint_id', 'event_type', 'created_at'] },
  { fields: ['status', 'created_at'] },
];
/** Lanes and targets: the dispatcher follows both by the position that last changed them. */
export const CHANGE_FEED_INDEXES: readonly IndexSpec[] = [{ fields: ['changed_at'] }];

