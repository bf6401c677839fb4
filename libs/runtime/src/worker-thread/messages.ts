import type { TallyConfig } from '@tally/cells';
import type { WorkerPart } from '../worker';

/** What the API's thread gives a worker thread at its start. */
export interface WorkerThreadData {
  config: TallyConfig;
  part: WorkerPart;
}

/** Streams a thread appended to, by SQLite file, since its last such message. */
export interface Appended {
  kind: 'appended';
  appends: [file: string, streams: string[]][];
}

export type ToWorkerThread =
  /** What the API's thread, or another worker thread, appended. */
  Appended | { kind: 'settle'; id: number } | { kind: 'stop' };

export type FromWorkerThread =
  | { kind: 'ready' }
  | { kind: 'settled'; id: number; error?: string }
  /** The tenant directory projection committed: cached API keys may be stale. */
  | { kind: 'directory-changed' }
  /** What this thread appended, for the other threads. */
  | Appended;
