import type { UsageRecord } from './domain/usage.events';
import type { UsageBatchResponse, UsageEventResponse } from './dto/usage.dto';
import type { AcceptedUsage } from './usage-ingest';

/** An event as stored (its `rebill` mark stays internal); `duplicate` when it is the original a copy was merged into. */
export const usageEventResource = ({ subscription_id, meter, quantity, timestamp, external_id, properties, received_at }: UsageRecord, duplicate: boolean): UsageEventResponse => ({
  object: 'usage_event',
  subscription_id,
  meter,
  quantity,
  timestamp,
  external_id,
  properties,
  received_at,
  duplicate,
});

/** The answer to one event: the event as stored, the original's when it copies one. */
export const acceptedEvent = ({ records, originals }: AcceptedUsage): UsageEventResponse =>
  originals[0] ? usageEventResource(originals[0], true) : usageEventResource(records[0], false);

/** The answer to a batch: its id, how many events it carried, and each copy by its index with the original it was merged into. */
export const acceptedBatch = ({ batchId, records, originals }: AcceptedUsage): UsageBatchResponse => ({
  object: 'usage_batch',
  id: batchId,
  accepted: records.length,
  duplicates: originals.flatMap((original, index) => (original ? [{ index, event: usageEventResource(original, true) }] : [])),
});
