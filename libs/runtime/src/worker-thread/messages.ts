import type { TallyConfig } from '@tally/cells';

/** What the API's thread gives the worker thread at its start. */
export interface WorkerThreadData {
  config: TallyConfig;
}

export type ToWorkerThread =
  /** Streams the API's thread appended to, by SQLite file, since the last message. */
  | { kind: 'appended'; appends: [file: string, streams: string[]][] }
  | { kind: 'settle'; id: number }
  | { kind: 'stop' };

export type FromWorkerThread =
  | { kind: 'ready' }
  | { kind: 'settled'; id: number; error?: string }
  /** The tenant directory projection committed: cached API keys may be stale. */
  | { kind: 'directory-changed' };
