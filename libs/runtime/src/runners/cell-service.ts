import type { Cell, LeaseFence } from '@tally/cells';
import type { Runner } from './leased-runner';

/**
 * Work a context runs in the background of each cell that is neither a projection nor a process
 * (the webhook dispatcher): the worker holds one lease per cell for it and runs the runner it
 * makes while the lease is held. The fence closes when the lease is lost.
 */
export interface CellService {
  /** Lowercase with underscores; names the lease, e.g. `eu/service/webhook_dispatcher`. */
  name: string;
  runnerFor(cell: Cell, fence: LeaseFence): ServiceRunner;
}

/** A cell service's runner. */
export interface ServiceRunner extends Runner {
  /**
   * Resolves once the runner has done everything it can do now with what the read models hold
   * (what is due on its clocks included). `Worker.settle` asks once every projection has caught
   * up, so that what the service does after a write is done when a settle resolves.
   */
  whenIdle?(): Promise<void>;
}
