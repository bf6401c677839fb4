import { Injectable } from '@nestjs/common';
import type { Cell, Region } from '@tally/cells';
import type { UsageBatchAccepted, UsageRecord } from './domain/usage.events';
import { InFlightUsage } from './in-flight-usage';
import { countedAt, usageDedupeKey } from './usage-dedupe-key';
import { USAGE_INGEST_PREFIX } from './usage-ingest-stream';
import { DEDUPE_WINDOW_HOURS, HOUR_MS, USAGE_DEDUPE, USAGE_PROJECTION } from './usage.projection';

/** A batch checked for copies: the event each of its events copies, if any, and what to call once it is in the log. */
export interface CheckedBatch {
  /** For each event, the stored event it is a copy of (the original's fields), or undefined for one that counts. */
  originals: (UsageRecord | undefined)[];
  appended(position: bigint): void;
}

/**
 * Tells, as a batch is accepted, which of its events are copies of an event already accepted (same
 * subscription, meter and external id), though the usage projection counts them later, in log
 * order: a copy of one counted within the dedupe window (the dedupe index keeps where each counted
 * event is), of one this process accepted that is still in flight, or of one earlier in the batch.
 * A copy it tells of is certain not to count. One it cannot tell of yet (accepted concurrently by
 * another process, or checked before the original's batch was in the log) is answered as new, and
 * the projection still merges it.
 */
@Injectable()
export class UsageDuplicates {
  private readonly inFlight = new Map<Region, InFlightUsage>();

  /** `now`: the system clock's, when the batch is accepted (the dedupe window's time). */
  async check(cell: Cell, records: readonly UsageRecord[], now: Date): Promise<CheckedBatch> {
    const keys = records.map(usageDedupeKey);
    const inFlight = this.inFlightOf(cell);
    inFlight.forgetCounted(await cell.readModels.getCheckpoint(USAGE_PROJECTION));
    // An hour inside the projection's window, which it measures from the batch's own (later) hour.
    const notBefore = Math.floor(now.getTime() / HOUR_MS) - DEDUPE_WINDOW_HOURS + 1;
    const counted = await cell.readModels.keyRefs(USAGE_DEDUPE, [...new Set(keys)], notBefore);
    const stored = await storedEvents(cell, counted.values());
    const firsts = new Map<string, UsageRecord>();
    const originals = records.map((record, index) => {
      const key = keys[index];
      // A key counted before refs were kept: its original is not known, and the copy answers as sent.
      if (counted.has(key)) return stored.get(counted.get(key)!) ?? record;
      const original = inFlight.originalOf(key) ?? firsts.get(key);
      if (!original) firsts.set(key, record);
      return original;
    });
    return { originals, appended: (position) => inFlight.remember(position, firsts) };
  }

  private inFlightOf(cell: Cell): InFlightUsage {
    let inFlight = this.inFlight.get(cell.region);
    if (!inFlight) this.inFlight.set(cell.region, (inFlight = new InFlightUsage()));
    return inFlight;
  }
}

/** The counted events these refs name, by ref, reading each batch once. */
async function storedEvents(cell: Cell, refs: Iterable<string | null>): Promise<Map<string, UsageRecord>> {
  const stored = new Map<string, UsageRecord>();
  const batches = new Map<bigint, UsageRecord[] | undefined>();
  for (const ref of refs) {
    if (ref === null || stored.has(ref)) continue;
    const { position, index } = countedAt(ref);
    if (!batches.has(position)) batches.set(position, await batchAt(cell, position));
    const record = batches.get(position)?.[index];
    if (record) stored.set(ref, record);
  }
  return stored;
}

async function batchAt(cell: Cell, position: bigint): Promise<UsageRecord[] | undefined> {
  const [event] = await cell.events.readAll({ fromPosition: position - 1n, limit: 1, filter: { streamPrefixes: [USAGE_INGEST_PREFIX] } });
  return event?.position === position && event.type === 'UsageBatchAccepted' ? (event.data as UsageBatchAccepted['data']).events : undefined;
}
