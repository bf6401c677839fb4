import { setTimeout as sleep } from 'node:timers/promises';
import type { Cell, CellRegistry, Region, RequestContext } from '@tally/cells';
import type { TallyMetrics } from '@tally/observability';
import { streamName } from '../commands/aggregate-definition';
import { later } from '../projections/catch-up';
import type { Projection } from '../projections/projection';
import type { ProjectionBinding } from '../projections/projection-source';
import { bindingsFor } from '../worker';

type Outcome = 'clear' | 'caught_up' | 'timed_out';

/**
 * Read-your-writes for the API's callers. The read models trail the log by the time the worker
 * takes to project it, so before a caller's read of a collection, this waits (bounded) until every
 * projection writing that collection has committed all its events up to:
 * - the newest position this process appended at for the caller's tenant and environment, or the
 *   log's head when this process started (the writes acknowledged before a restart);
 * - for a retrieve by id, also the last event of the resource's own stream, whoever appended it
 *   (another API process, the worker).
 * The automated actors (process managers, reactions, the system) read as the read models stand.
 */
export class ReadYourWrites {
  private readonly followers = new Map<Region, Map<string, CommittedProgress[]>>();
  /** Resource collections by name: their documents each reflect one stream of this aggregate type. */
  private readonly aggregateTypes = new Map<string, string>();
  private readonly startHeads = new Map<Region, Promise<bigint | undefined>>();

  constructor(
    private readonly cells: CellRegistry,
    private readonly projections: readonly Projection[],
    private readonly metrics: TallyMetrics,
    /** How long a read waits before it answers with what the read models hold (and counts it). */
    private readonly limitMs: number,
  ) {
    for (const projection of projections) if (projection.resource) this.aggregateTypes.set(projection.resource.collection, projection.resource.aggregateType);
    for (const cell of cells.all()) void this.startHead(cell).catch(() => undefined);
  }

  /** Waits until `collection` shows everything the caller's tenant wrote (see above). */
  async awaitWrites(context: RequestContext, collection: string): Promise<void> {
    if (isAutomated(context)) return;
    const cell = this.cells.cell(context.region);
    const floor = later(cell.written.of(context.tenantId, context.environment), await this.startHead(cell));
    if (floor !== undefined) await this.awaitCollection(cell, collection, floor);
  }

  /**
   * For a retrieve of a resource document stored at `storedRevision` (undefined: none stored):
   * waits until its collection shows the last event of the resource's stream, when it did not.
   * True when it waited, so the document is to be read again.
   */
  async awaitStream(context: RequestContext, collection: string, id: string, storedRevision: number | undefined): Promise<boolean> {
    const aggregateType = this.aggregateTypes.get(collection);
    if (isAutomated(context) || aggregateType === undefined) return false;
    const cell = this.cells.cell(context.region);
    const last = await cell.events.lastEventOf(streamName(aggregateType, id));
    if (!last || (storedRevision !== undefined && storedRevision >= last.revision)) return false;
    await this.awaitCollection(cell, collection, last.position);
    return true;
  }

  /**
   * Waits until the key directory shows everything this process wrote, in every cell: an API key
   * issued a moment ago is then found (asked when a key is not).
   */
  async awaitDirectory(): Promise<void> {
    await Promise.all(
      this.cells.all().map(async (cell) => {
        const floor = later(cell.written.newest(), await this.startHead(cell));
        if (floor !== undefined) await this.awaitFollowers(this.directoryFollowersOf(cell), floor);
      }),
    );
  }

  /** The log's head when this process started (read as it starts; a read that failed is tried again by the next). */
  private startHead(cell: Cell): Promise<bigint | undefined> {
    let head = this.startHeads.get(cell.region);
    if (!head) {
      head = cell.events.headPosition();
      this.startHeads.set(cell.region, head);
      head.catch(() => this.startHeads.delete(cell.region));
    }
    return head;
  }

  private awaitCollection(cell: Cell, collection: string, position: bigint): Promise<void> {
    return this.awaitFollowers(this.followersOf(cell).get(collection) ?? [], position);
  }

  private async awaitFollowers(followers: readonly CommittedProgress[], position: bigint): Promise<void> {
    let expired = false;
    const timer = setTimeout(() => (expired = true), this.limitMs);
    try {
      const outcomes = await Promise.all(followers.map((follower) => follower.reached(position, () => expired)));
      const outcome = outcomes.includes('timed_out') ? 'timed_out' : outcomes.includes('caught_up') ? 'caught_up' : 'clear';
      if (outcome !== 'clear') this.metrics.readWaits.inc({ outcome });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The cell's projections by the collections they write (those of the directory included, under their names). */
  private followersOf(cell: Cell): ReadonlyMap<string, readonly CommittedProgress[]> {
    let byCollection = this.followers.get(cell.region);
    if (!byCollection) {
      byCollection = new Map();
      for (const binding of bindingsFor(cell, this.cells, this.projections)) {
        const follower = new CommittedProgress(binding);
        for (const { name } of binding.projection.collections) byCollection.set(name, [...(byCollection.get(name) ?? []), follower]);
      }
      this.followers.set(cell.region, byCollection);
    }
    return byCollection;
  }

  private directoryFollowersOf(cell: Cell): CommittedProgress[] {
    return [...new Set([...this.followersOf(cell).values()].flat())].filter((follower) => follower.writesTheDirectory);
  }
}

/** Reads of process managers, reactions and the system itself, which decide from the event store and need not wait. */
const isAutomated = (context: RequestContext): boolean => /^(process|reaction|system):/.test(context.actor);

/**
 * How far one projection, running elsewhere (a worker thread or process), has committed: read
 * from its checkpoint and the log, polled while a read waits for it.
 */
class CommittedProgress {
  /** Up to here every event of the projection's streams is committed (its checkpoint stops at its own last event). */
  private clearTo: bigint | undefined;

  constructor(private readonly binding: ProjectionBinding) {}

  get writesTheDirectory(): boolean {
    return this.binding.projection.target === 'directory';
  }

  async reached(position: bigint, expired: () => boolean): Promise<Outcome> {
    for (let polls = 0; ; polls++) {
      if (this.clearTo !== undefined && this.clearTo >= position) return polls === 0 ? 'clear' : 'caught_up';
      const from = later(await this.binding.store.getCheckpoint(this.binding.checkpoint), this.clearTo);
      const [pending] =
        from !== undefined && from >= position ? [] : await this.binding.events.readAll({ fromPosition: from, limit: 1, filter: { streamPrefixes: this.binding.projection.streamPrefixes } });
      if (!pending || pending.position > position) {
        this.clearTo = later(this.clearTo, position);
        return polls === 0 ? 'clear' : 'caught_up';
      }
      if (expired()) return 'timed_out';
      await sleep(Math.min(2 ** polls, 25));
    }
  }
}
