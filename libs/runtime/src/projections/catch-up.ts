import type { EventStore, SubscriptionFilter } from '@tally/eventstore';

/**
 * How far a subscriber has handled the log, and a way to wait for it: `reached(position)`
 * resolves once no event the subscriber cares about, up to `position`, is left unhandled.
 */
export class CatchUp {
  private waiters: { position: bigint; resolve: () => void }[] = [];
  /**
   * Up to here, every event the subscriber cares about is handled (its checkpoint may be behind,
   * when nothing it cares about came after it): a later look for pending events starts here, so
   * a subscriber that rarely finds an event for it is not asked about the same stretch of log twice.
   */
  private clearTo: bigint | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly filter: SubscriptionFilter,
    public handled: bigint | undefined = undefined,
  ) {}

  advance(position: bigint | undefined): void {
    if (position === undefined || (this.handled !== undefined && position <= this.handled)) return;
    this.handled = position;
    const due = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of due) waiter.resolve();
  }

  async reached(position: bigint): Promise<void> {
    for (;;) {
      if (this.handled !== undefined && this.handled >= position) return;
      if (this.clearTo !== undefined && this.clearTo >= position) return;
      const from = later(this.handled, this.clearTo);
      const [pending] = await this.events.readAll({ fromPosition: from, limit: 1, filter: this.filter });
      if (!pending || pending.position > position) {
        this.clearTo = position;
        return;
      }
      // The subscriber may have handled it while the read was under way; a waiter added after that would wait for good.
      if (this.handled !== undefined && this.handled >= pending.position) continue;
      await new Promise<void>((resolve) => this.waiters.push({ position: pending.position, resolve }));
    }
  }
}

/** The later of two positions, either of which may be unknown. */
export const later = (a: bigint | undefined, b: bigint | undefined): bigint | undefined => (a === undefined ? b : b === undefined || a >= b ? a : b);
