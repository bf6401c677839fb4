import type { TempCells } from '@tally/cells/testing/temp-cells';
import type { CellRegistry } from '@tally/cells';
import { Worker } from '../../worker';

type WorkerOptions = Parameters<typeof Worker.over>[1];

/**
 * A worker over temporary cells for the runtime's specs, the timer poller off (a spec fires timers
 * itself): started, restarted over the same files as after a crash, ended with the files removed.
 */
export class TempWorker {
  cells!: CellRegistry;
  worker!: Worker;

  constructor(
    private readonly temp: TempCells,
    private readonly options: WorkerOptions,
  ) {}

  async start(): Promise<void> {
    this.cells = this.temp.open();
    this.worker = Worker.over(this.cells, this.options);
    await this.worker.start({ pollTimers: false });
  }

  async restart(): Promise<void> {
    await this.close();
    await this.start();
  }

  async end(): Promise<void> {
    await this.close();
    this.temp.remove();
  }

  private async close(): Promise<void> {
    await this.worker.stop();
    await this.cells.close();
  }
}
