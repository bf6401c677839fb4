import type { EventMetadata } from '@tally/eventstore';
import type { FoldedAggregate } from './folded-aggregate';

/** An aggregate folded up to `revision` (never an empty stream), with what a load reports beside the fold. */
export interface CachedFold<S, R> extends FoldedAggregate<S, R> {
  /** Whose aggregate it is: the snapshot's owner or the first event's tenant and environment. */
  owner: Pick<EventMetadata, 'tenant_id' | 'environment'>;
  snapshotRevision: number;
  commandIds: ReadonlySet<string>;
  clockId?: string;
}

/** Folds kept per cell; the least recently used leaves first. */
export const FOLD_CACHE_SIZE = 10_000;

/**
 * The last folds the command runtime made, by stream, so that a load reads only the events
 * appended after the cached revision instead of the whole stream. A stream's events never change
 * once appended (a revision is written once), so the fold of revisions 0…r stays the fold of
 * revisions 0…r: a load that reads the tail after r is exactly a load from the start, whoever
 * appended meanwhile. Only folds of streams without personal data are kept (erasure must leave
 * nothing readable behind, as for snapshots). The folds are shared: states are never mutated.
 */
export class FoldCache {
  private readonly folds = new Map<string, CachedFold<unknown, unknown>>();

  constructor(private readonly capacity = FOLD_CACHE_SIZE) {}

  get<S, R>(stream: string): CachedFold<S, R> | undefined {
    const fold = this.folds.get(stream);
    if (!fold) return undefined;
    // Most recently used last.
    this.folds.delete(stream);
    this.folds.set(stream, fold);
    return fold as CachedFold<S, R>;
  }

  /** Keeps the fold unless one of a later revision is kept already. */
  set<S, R>(stream: string, fold: CachedFold<S, R>): void {
    const kept = this.folds.get(stream);
    if (kept && kept.revision > fold.revision) return;
    this.folds.delete(stream);
    this.folds.set(stream, fold as CachedFold<unknown, unknown>);
    if (this.folds.size > this.capacity) this.folds.delete(this.folds.keys().next().value!);
  }

  delete(stream: string): void {
    this.folds.delete(stream);
  }
}
