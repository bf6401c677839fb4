import { encodePosition } from '@tally/readstore';
import type { ProjectionWriter } from '@tally/runtime';
import { DUE_NOW, laneId, SYSTEM_CLOCK_LANES, WEBHOOK_DELIVERIES, WEBHOOK_LANES, type DeliveryDoc, type LaneDoc } from './outbox-documents';

/**
 * The deliveries of one endpoint and aggregate form a queue, so that the receiver gets them in
 * commit order: a lane holds the first and the last, each delivery the one after it. Only the
 * first is ever attempted; it leaves the lane when it succeeded or failed for good. Every change
 * to a lane carries the position of the event that made it (`changed_at`).
 */
export async function enqueue(writer: ProjectionWriter, delivery: DeliveryDoc, position: bigint): Promise<void> {
  const id = laneId(delivery.webhook_endpoint_id, delivery.aggregate_id);
  const lane = await writer.get<LaneDoc>(WEBHOOK_LANES, id);
  writer.upsert(WEBHOOK_DELIVERIES, { ...delivery, next_in_lane: null });
  const changed_at = encodePosition(position);
  if (!lane) {
    const { webhook_endpoint_id, tenant_id, environment, clock } = delivery;
    writer.upsert(WEBHOOK_LANES, { id, webhook_endpoint_id, tenant_id, environment, head: delivery.id, tail: delivery.id, due_at: dueAtHead(delivery), clock, changed_at } satisfies LaneDoc);
    return;
  }
  const tail = await writer.get<DeliveryDoc>(WEBHOOK_DELIVERIES, lane.tail);
  if (tail) writer.upsert(WEBHOOK_DELIVERIES, { ...tail, next_in_lane: delivery.id });
  writer.upsert(WEBHOOK_LANES, { ...lane, tail: delivery.id, changed_at });
}

/** The lane's first delivery is to be attempted at `dueAt` (DUE_NOW: at once). */
export async function reschedule(writer: ProjectionWriter, delivery: DeliveryDoc, dueAt: string, position: bigint): Promise<void> {
  const lane = await laneOf(writer, delivery);
  if (lane?.head === delivery.id) writer.upsert(WEBHOOK_LANES, { ...lane, due_at: dueAt, changed_at: encodePosition(position) });
}

/** The lane's first delivery is done: the next one is due (at once, or when the one before ended on a test clock), or the lane is empty. */
export async function dequeue(writer: ProjectionWriter, delivery: DeliveryDoc, position: bigint): Promise<void> {
  const lane = await laneOf(writer, delivery);
  if (lane?.head !== delivery.id) return;
  if (delivery.next_in_lane === null) return writer.delete(WEBHOOK_LANES, lane.id);
  const next = lane.clock === SYSTEM_CLOCK_LANES ? undefined : await writer.get<DeliveryDoc>(WEBHOOK_DELIVERIES, delivery.next_in_lane);
  const due_at = next ? dueAtHead(next, delivery.attempts.at(-1)?.attempted_at) : DUE_NOW;
  writer.upsert(WEBHOOK_LANES, { ...lane, head: delivery.next_in_lane, due_at, changed_at: encodePosition(position) });
}

/**
 * When a delivery that comes to the head of its lane is first due. On the system clock, at once.
 * On a test clock, which an advance may move past many due times at once, at the time it became
 * due on that clock: its event's time, or the end of the delivery before it (`notBefore`) if
 * later. The dispatcher makes the attempt at that time of the clock, and the retries follow from
 * it, each at its own time, as the clock's timers fire. A replay or a manual retry, asked for
 * now, is due at once.
 */
function dueAtHead(delivery: DeliveryDoc, notBefore?: string): string {
  if (delivery.clock === SYSTEM_CLOCK_LANES || delivery.replay_of !== null || delivery.manual_retry) return DUE_NOW;
  return notBefore !== undefined && notBefore > delivery.created_at ? notBefore : delivery.created_at;
}

const laneOf = (writer: ProjectionWriter, delivery: DeliveryDoc) => writer.get<LaneDoc>(WEBHOOK_LANES, laneId(delivery.webhook_endpoint_id, delivery.aggregate_id));
