import type { RecordedEvent } from '@tally/eventstore';

/** A stored event of one stream with its personal data decoded; the global position is not needed here. */
export type HistoryEvent = Omit<RecordedEvent, 'position'>;
