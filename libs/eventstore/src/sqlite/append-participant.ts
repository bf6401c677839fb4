import type { NewEvent } from '../event-store.port';

/**
 * Another store's writes on the same SQLite connection that must commit with an append or not at
 * all, such as the data key that the appended personal data is sealed with. Several appends share
 * one transaction (a group commit), each in a savepoint of its own.
 */
export interface AppendParticipant {
  /** Runs inside the append's savepoint, after the revision check; throwing rolls the append back (and only it). */
  join(stream: string, events: readonly NewEvent[]): void;
  /** Runs once the transaction has committed. */
  committed(): void;
  /** Runs when the transaction failed as a whole: none of its appends committed. */
  abandoned(): void;
}
