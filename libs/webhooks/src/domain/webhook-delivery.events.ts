import type { Event } from '@tally/kernel';

/** How an attempt ended for its delivery: done, to be tried again at `next_attempt_at`, or given up. */
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/** One POST of a delivery and what the receiver answered (no answer: `response_status` null and an `error`). */
export type WebhookDeliveryAttempted = Event<
  'WebhookDeliveryAttempted',
  {
    delivery_id: string;
    /** From 1; a manual retry continues the count. */
    attempt: number;
    attempted_at: string;
    duration_ms: number;
    response_status: number | null;
    /** The start of the answer's body, cut to the documented limit. */
    response_body: string;
    error: string | null;
    outcome: AttemptOutcome;
    next_attempt_at: string | null;
  }
>;

/** `POST …/deliveries/{id}/retry`: one more attempt of a delivery, with the same event. */
export type WebhookDeliveryRetryRequested = Event<'WebhookDeliveryRetryRequested', { delivery_id: string }>;

/** `POST …/replay`: a new delivery of each of these deliveries' events, in this order. */
export type WebhookReplayRequested = Event<'WebhookReplayRequested', { replay_id: string; webhook_endpoint_id: string; delivery_ids: readonly string[] }>;

export type WebhookDeliveryLogEvent = WebhookDeliveryAttempted | WebhookDeliveryRetryRequested | WebhookReplayRequested;
