import { DerivedKeys } from './derived-keys';
import type { ReadStore } from '@tally/readstore';
import type { Cell } from './cell';
import type { Region } from './context/request-context';
import type { IdempotencyStore } from './idempotency/idempotency-store.port';
import type { ListCursors } from './list-cursor';
import type { DirectoryChanges } from './directory-changes';

/**
 * The cells this process serves, plus the small global directory that maps API-key hashes to a
 * tenant and its region (the only data kept outside a region).
 */
export class CellRegistry {
  constructor(
    private readonly cells: ReadonlyMap<Region, Cell>,
    readonly directory: ReadStore,
    /** Idempotency records of the operator API, which is global: they live beside the directory. */
    readonly operatorIdempotency: IdempotencyStore,
    /** Cursors of lists read from the directory (the operator API's tenants). */
    readonly directoryCursors: ListCursors,
    /** Keys of their own for the installation's signatures (such as invoice PDF links), derived from the master key. */
    readonly keys: DerivedKeys,
    private readonly closeDirectory: () => Promise<void> = () => directory.close(),
    /** Where this process learns of every directory change; none where another process writes it (production). */
    readonly directoryChanges?: DirectoryChanges,
  ) {}

  cell(region: Region): Cell {
    const cell = this.cells.get(region);
    if (!cell) throw new Error(`This process serves no cell for region ${region}`);
    return cell;
  }

  all(): Cell[] {
    return [...this.cells.values()];
  }

  async close(): Promise<void> {
    for (const cell of this.cells.values()) await cell.close();
    await this.closeDirectory();
  }
}
