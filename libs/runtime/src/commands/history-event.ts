import type { RecordedEvent } from '@tally/eventstore';

/** A stored event of one stream with its personal data decoded; the global position is not needed here. */
export type HistoryEvent = Omit<RecordedEvent, 'position'>;

/** Any event, as a view or a reaction that is not typed by one aggregate's events reads it. */
export type AnyEvent = { readonly type: string; readonly data: unknown };

/**
 * A stored event read as one of its aggregate's events (`E`, the aggregate's event union): its
 * stream says whose it is, and upcasters bring every stored shape to the current one.
 */
export const asEventOf = <E extends AnyEvent>(stored: HistoryEvent): E & HistoryEvent => stored as E & HistoryEvent;
