import type { Cell, CellRegistry } from '@tally/cells';
import type { MetricFamily, Sample } from '@tally/observability';
import type { Projection } from './projection';
import type { ProjectionBinding } from './projection-source';
import { bindingsFor } from '../worker';

const NAME = 'projection_lag_events';
/** Counting reads the events themselves; beyond this many the projection is plainly behind. */
export const LAG_COUNTED_UP_TO = 1000;

/**
 * `projection_lag_events{projection,region}`: how many events of its streams a projection has not
 * committed yet, read from the stores (its committed checkpoint, then the log after it), so any
 * process can serve it, also one apart from the worker. A count, not head minus checkpoint: the
 * checkpoint stops at the projection's own last event while other streams move the head on (and
 * EventStoreDB positions are log offsets, not event numbers).
 */
export class ProjectionLag {
  /**
   * Per binding, a position up to which the log held nothing left for it at an earlier scrape.
   * Later events come after it and the checkpoint only moves forward, so the next count starts
   * there instead of rescanning everything since the projection's last event.
   */
  private readonly clearUpTo = new Map<string, bigint>();

  constructor(
    private readonly cells: CellRegistry,
    private readonly projections: readonly Projection[],
  ) {}

  async collect(): Promise<MetricFamily> {
    const samples: Sample[] = [];
    for (const cell of this.cells.all()) {
      const head = await cell.events.headPosition();
      for (const binding of bindingsFor(cell, this.cells, this.projections)) {
        const value = await this.lagOf(cell, binding, head);
        samples.push({ name: NAME, labels: { projection: binding.projection.name, region: cell.region }, value });
      }
    }
    return { name: NAME, help: `Events a projection has not yet committed to its read model, counted up to ${LAG_COUNTED_UP_TO}`, type: 'gauge', samples };
  }

  private async lagOf(cell: Cell, binding: ProjectionBinding, head: bigint | undefined): Promise<number> {
    const key = `${cell.region}/${binding.checkpoint}`;
    const checkpoint = await binding.store.getCheckpoint(binding.checkpoint);
    const clear = this.clearUpTo.get(key);
    const fromPosition = clear !== undefined && (checkpoint === undefined || clear > checkpoint) ? clear : checkpoint;
    const pending = await binding.events.readAll({ fromPosition, limit: LAG_COUNTED_UP_TO, filter: { streamPrefixes: binding.projection.streamPrefixes } });
    if (pending.length === 0 && head !== undefined) this.clearUpTo.set(key, head);
    return pending.length;
  }
}
