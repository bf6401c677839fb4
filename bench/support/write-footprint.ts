import type { EventStore, RecordedEvent } from '@tally/eventstore';

/** What a stretch of the log holds: its events, the appends they came in, and how many of each type. */
export interface WriteFootprint {
  events: number;
  appends: number;
  byType: ReadonlyMap<string, number>;
}

const PAGE = 5_000;

/**
 * The events appended after `from` (exclusive), and the appends that wrote them. An append's
 * events are adjacent in the log (an adapter commits them at once), on one stream at consecutive
 * revisions, with the same metadata (one command, one cause, one moment): a run of such events is
 * one append.
 */
export async function writeFootprint(events: EventStore, from: bigint | undefined): Promise<WriteFootprint> {
  const byType = new Map<string, number>();
  let count = 0;
  let appends = 0;
  let previous: RecordedEvent | undefined;
  let after = from;
  for (;;) {
    const page = await events.readAll({ fromPosition: after, limit: PAGE });
    if (page.length === 0) return { events: count, appends, byType };
    for (const event of page) {
      count++;
      byType.set(event.type, (byType.get(event.type) ?? 0) + 1);
      if (!previous || !sameAppend(previous, event)) appends++;
      previous = event;
    }
    after = page[page.length - 1].position;
  }
}

function sameAppend(earlier: RecordedEvent, later: RecordedEvent): boolean {
  if (later.stream !== earlier.stream || later.revision !== earlier.revision + 1 || later.position !== earlier.position + 1n) return false;
  const { schema_version: _a, ...a } = earlier.metadata;
  const { schema_version: _b, ...b } = later.metadata;
  return JSON.stringify(a) === JSON.stringify(b);
}
