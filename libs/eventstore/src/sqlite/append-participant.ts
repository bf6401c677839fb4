import type { NewEvent } from '../event-store.port';

/**
 * Another store's writes on the same SQLite connection that must commit with an append or not at
 * all, such as the data key that the appended personal data is sealed with.
 */
export interface AppendParticipant {
  /** Runs inside the append's transaction, after the revision check; throwing rolls the append back. */
  join(stream: string, events: readonly NewEvent[]): void;
  /** Runs once that transaction has committed. */
  committed(): void;
}
