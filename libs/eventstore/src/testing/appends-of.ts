import type { RecordedEvent } from '../event-store.port';

/** One append as the log shows it: its stream and its events' types, in order. */
export interface LoggedAppend {
  stream: string;
  types: string[];
}

/**
 * The appends that wrote these events (in log order). An append's events are adjacent in the log
 * (an adapter commits them at once), on one stream at consecutive revisions, with the same metadata
 * (one command, one cause, one moment): a run of such events is one append.
 */
export function appendsOf(events: readonly RecordedEvent[]): LoggedAppend[] {
  const appends: LoggedAppend[] = [];
  let previous: RecordedEvent | undefined;
  for (const event of events) {
    if (previous && sameAppend(previous, event)) appends[appends.length - 1].types.push(event.type);
    else appends.push({ stream: event.stream, types: [event.type] });
    previous = event;
  }
  return appends;
}

function sameAppend(earlier: RecordedEvent, later: RecordedEvent): boolean {
  if (later.stream !== earlier.stream || later.revision !== earlier.revision + 1 || later.position !== earlier.position + 1n) return false;
  const { schema_version: _a, ...a } = earlier.metadata;
  const { schema_version: _b, ...b } = later.metadata;
  return JSON.stringify(a) === JSON.stringify(b);
}
