import type { ReadStore } from '@tally/readstore';
import { WEBHOOK_DELIVERIES, type DeliveryDoc } from '../outbox/outbox-documents';

/** The spec's retention of webhook delivery logs. */
export const DELIVERY_RETENTION_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;
const PAGE = 500;
/** Pages deleted per call, so that a call ends even if the outbox keeps writing the same records. */
const PAGES_PER_CALL = 20;

/**
 * Deletes the records of deliveries that ended (succeeded or failed) and were created more than
 * 90 days before `now`; pending ones stay whatever their age (an endpoint disabled for months).
 * A delete is guarded by the outbox's checkpoint, as the outbox's own writes are by their events'
 * positions, so a record the outbox writes again after this commit is never lost to it.
 */
export async function purgeExpiredDeliveries(store: ReadStore, outboxCheckpoint: string, now: Date): Promise<number> {
  const position = await store.getCheckpoint(outboxCheckpoint);
  if (position === undefined) return 0;
  const before = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * DAY_MS).toISOString();
  let purged = 0;
  for (const status of ['succeeded', 'failed'] as const) {
    for (let page = 0; page < PAGES_PER_CALL; page++) {
      const { items } = await store.find<DeliveryDoc>(WEBHOOK_DELIVERIES, {
        where: [
          { field: 'status', op: 'eq', value: status },
          { field: 'created_at', op: 'lt', value: before },
        ],
        limit: PAGE,
      });
      await store.commit(items.map((delivery) => ({ op: 'delete' as const, collection: WEBHOOK_DELIVERIES, id: delivery.id, position })));
      purged += items.length;
      if (items.length < PAGE) break;
    }
  }
  return purged;
}
