import type { EventStore, RecordedEvent } from '@tally/eventstore';
import { appendsOf } from '@tally/eventstore/testing/appends-of';

/** What a stretch of the log holds: its events and the appends they came in. */
export interface WriteFootprint {
  events: number;
  appends: number;
}

const PAGE = 5_000;

/**
 * The events appended after `from` (exclusive), and the appends that wrote them (read after the
 * measured part), a page at a time: a large run's events do not fit in the bench's heap at once.
 * Each page is read after the last event of the one before, so an append the pages cut in two
 * counts once.
 */
export async function writeFootprint(events: EventStore, from: bigint | undefined): Promise<WriteFootprint> {
  let count = 0;
  let appends = 0;
  let last: RecordedEvent | undefined;
  for (;;) {
    const page = await events.readAll({ fromPosition: last?.position ?? from, limit: PAGE });
    if (page.length === 0) return { events: count, appends };
    count += page.length;
    appends += last ? appendsOf([last, ...page]).length - 1 : appendsOf(page).length;
    last = page[page.length - 1];
  }
}
