import type { EventStore, SubscriptionFilter } from '@tally/eventstore';

/**
 * How far a subscriber has handled the log, and a way to wait for it: `reached(position)`
 * resolves once no event the subscriber cares about, up to `position`, is left unhandled.
 */
export class CatchUp {
  private waiters: { position: bigint; resolve: () => void }[] = [];

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
      const [pending] = await this.events.readAll({ fromPosition: this.handled, limit: 1, filter: this.filter });
      if (!pending || pending.position > position) return;
      // The subscriber may have handled it while the read was under way; a waiter added after that would wait for good.
      if (this.handled !== undefined && this.handled >= pending.position) continue;
      await new Promise<void>((resolve) => this.waiters.push({ position: pending.position, resolve }));
    }
  }
}
