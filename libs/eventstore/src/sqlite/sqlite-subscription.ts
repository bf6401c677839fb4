import type { EventSubscription, RecordedEvent } from '../event-store.port';
import type { AppendNotifier } from './append-notifier';

/** Appends by other processes on the same file are seen after at most this delay. */
const FALLBACK_POLL_MS = 250;
const BATCH_SIZE = 500;
/**
 * Under a stream of appends a caught-up subscription reads again at most this long after its last
 * read began, so the appends of that time are read in one query rather than one each (every
 * follower of a cell scans for each append it wants). A subscription woken after a quiet spell
 * reads at once.
 */
const MIN_READ_INTERVAL_MS = 8;

export interface CatchUpBatch {
  events: RecordedEvent[];
  /** Every matching event up to this position has been returned. */
  scannedTo: bigint;
  /** The batch stopped at its limit (of events, or of bytes): more may follow at once. */
  more: boolean;
}

/** Reads the matching events after `from` (exclusive), at most `limit`. */
export type ReadCatchUpBatch = (from: bigint, limit: number) => CatchUpBatch;

/**
 * Catches up in batches, then waits for the in-process notifier (woken by every append through
 * this process to a stream it wants) or the fallback poll, whichever comes first. close() ends the iteration even while
 * it waits.
 */
export class SqliteSubscription implements EventSubscription {
  private closed = false;
  private iterated = false;
  private appendedSinceRead = false;
  private wake: (() => void) | undefined;
  /** Ends the pause between two reads (see MIN_READ_INTERVAL_MS); only close() calls it. */
  private endPause: (() => void) | undefined;
  private lastReadAt = 0;
  private readonly stopListening: () => void;

  constructor(
    private readonly readBatch: ReadCatchUpBatch,
    private position: bigint,
    notifier: AppendNotifier,
    private readonly onClose: (subscription: SqliteSubscription) => void,
    /** Appends to other streams do not wake this subscription (its filter would skip them). */
    wantsStream: (stream: string) => boolean = () => true,
  ) {
    this.stopListening = notifier.listen((stream) => {
      if (!wantsStream(stream)) return;
      this.appendedSinceRead = true;
      this.wake?.();
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterated) throw new Error('A subscription can be iterated only once');
    this.iterated = true;
    return this.events();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    this.wake?.();
    this.endPause?.();
    this.onClose(this);
  }

  private async *events(): AsyncGenerator<RecordedEvent> {
    try {
      while (!this.closed) {
        this.appendedSinceRead = false;
        this.lastReadAt = performance.now();
        const batch = this.readBatch(this.position, BATCH_SIZE);
        for (const event of batch.events) {
          this.position = event.position;
          yield event;
          if (this.closed) return;
        }
        this.position = batch.scannedTo;
        if (batch.more) continue;
        if (!this.appendedSinceRead) await this.nextAppendOrPoll();
        await this.pauseSinceLastRead();
      }
    } finally {
      await this.close();
    }
  }

  /** Waits until MIN_READ_INTERVAL_MS after the last read began (appends meanwhile are read together after it). */
  private pauseSinceLastRead(): Promise<void> {
    const wait = this.lastReadAt + MIN_READ_INTERVAL_MS - performance.now();
    if (wait <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(done, wait);
      this.endPause = done;
    });
  }

  private nextAppendOrPoll(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, FALLBACK_POLL_MS);
      this.wake = done;
    });
  }
}
