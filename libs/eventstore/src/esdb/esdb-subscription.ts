import { START, excludeSystemEvents, streamNameFilter, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import type { EventSubscription, RecordedEvent } from '../event-store.port';
import { matchesStreamPrefixes } from '../stream-filter';
import { isHiddenFromAll, toRecordedEvent } from './esdb-events';
import { decodePosition } from './esdb-position';

export interface ResubscribePolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** Told about every drop before the retry, so that silent drops become visible. */
  onDropped?: (error: unknown, retryInMs: number) => void;
}

export const DEFAULT_RESUBSCRIBE_POLICY: ResubscribePolicy = { initialDelayMs: 100, maxDelayMs: 5_000, factor: 1.5 };

/**
 * A catch-up subscription to $all that survives drops: when the server ends or breaks the
 * underlying subscription, it subscribes again from the last delivered position after a growing
 * delay (reset by the next delivered event). Consumed with `for await`, so the gRPC stream is
 * paused while the consumer works on an event.
 */
export class EsdbSubscription implements EventSubscription {
  private closed = false;
  private iterated = false;
  private current: AllStreamSubscription | undefined;
  private cancelDelay: (() => void) | undefined;

  constructor(
    private readonly client: EventStoreDBClient,
    private lastPosition: bigint | undefined,
    private readonly prefixes: readonly string[] | undefined,
    private readonly policy: ResubscribePolicy,
    private readonly onClose: (subscription: EsdbSubscription) => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterated) throw new Error('A subscription can be iterated only once');
    this.iterated = true;
    return this.events();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelDelay?.();
    const current = this.current;
    if (current) {
      await current.unsubscribe().catch(() => undefined);
      current.destroy();
    }
    this.onClose(this);
  }

  private async *events(): AsyncGenerator<RecordedEvent> {
    let delayMs = this.policy.initialDelayMs;
    try {
      while (!this.closed) {
        const subscription = this.subscribe();
        let dropCause: unknown = new Error('The server ended the subscription');
        try {
          for await (const resolved of subscription) {
            const event = resolved.event;
            if (!event || isHiddenFromAll(event) || !matchesStreamPrefixes(event.streamId, this.prefixes)) continue;
            const recorded = toRecordedEvent(event);
            // A resubscription may start at (not after) the last position; never deliver twice.
            if (this.lastPosition !== undefined && recorded.position <= this.lastPosition) continue;
            this.lastPosition = recorded.position;
            delayMs = this.policy.initialDelayMs;
            yield recorded;
            if (this.closed) return;
          }
        } catch (error) {
          dropCause = error;
        } finally {
          this.current = undefined;
          await subscription.unsubscribe().catch(() => undefined);
          subscription.destroy();
        }
        if (this.closed) return;
        this.policy.onDropped?.(dropCause, delayMs);
        await this.delay(delayMs);
        delayMs = Math.min(delayMs * this.policy.factor, this.policy.maxDelayMs);
      }
    } finally {
      await this.close();
    }
  }

  private subscribe(): AllStreamSubscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: this.lastPosition === undefined ? START : decodePosition(this.lastPosition),
      filter: this.prefixes ? streamNameFilter({ prefixes: [...this.prefixes] }) : excludeSystemEvents(),
    });
    // `for await` sees errors through its own listener; this one keeps an error emitted after the
    // loop has ended (while unsubscribing) from crashing the process.
    subscription.on('error', () => undefined);
    this.current = subscription;
    return subscription;
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.cancelDelay = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.cancelDelay = done;
    });
  }
}
