import type { EventStore, RecordedEvent } from '@tally/eventstore';
import { appendsOf } from '@tally/eventstore/testing/appends-of';

/** What a stretch of the log holds: its events and the appends they came in. */
export interface WriteFootprint {
  events: number;
  appends: number;
}

const PAGE = 5_000;

/** The events appended after `from` (exclusive), and the appends that wrote them (read after the measured part). */
export async function writeFootprint(events: EventStore, from: bigint | undefined): Promise<WriteFootprint> {
  const written: RecordedEvent[] = [];
  for (;;) {
    const page = await events.readAll({ fromPosition: written.at(-1)?.position ?? from, limit: PAGE });
    if (page.length === 0) return { events: written.length, appends: appendsOf(written).length };
    written.push(...page);
  }
}
