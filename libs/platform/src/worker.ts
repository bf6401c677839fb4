import type { Clock, IdGenerator } from '@tally/kernel';
import type { CellRegistry } from './cells/cell-registry';
import type { Cell } from './cells/cell';
import type { Projection } from './projections/projection';
import { ProjectionRunner } from './projections/projection-runner';
import type { RunnerLog } from './runtime/supervise';
import type { ProjectionBinding } from './projections/projection-source';
import type { ProcessManager } from './processes/process-manager';
import { ProcessRunner } from './processes/process-runner';
import { ProcessRuntime } from './processes/process-runtime';
import { TimerPoller } from './processes/timer-poller';
import { timersProjection } from './processes/timers.projection';

/** Where each projection of a cell reads and writes, under a checkpoint name unique in its store. */
export function bindingsFor(cell: Cell, cells: CellRegistry, projections: readonly Projection[]): ProjectionBinding[] {
  return [...projections, timersProjection].map((projection) => {
    const toDirectory = projection.target === 'directory';
    return {
      projection,
      events: cell.events,
      pii: cell.pii,
      store: toDirectory ? cells.directory : cell.readModels,
      checkpoint: toDirectory ? `${projection.name}@${cell.region}` : projection.name,
    };
  });
}

/**
 * Everything that happens after a write, for every cell this process serves: projections,
 * process managers and their timers.
 */
export class Worker {
  private readonly projectionRunners: { cell: Cell; runner: ProjectionRunner }[] = [];
  private readonly processRunners: { cell: Cell; runner: ProcessRunner }[] = [];
  private readonly pollers: TimerPoller[] = [];

  constructor(
    private readonly cells: CellRegistry,
    private readonly projections: readonly Projection[],
    private readonly processes: readonly ProcessManager<unknown>[],
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly log: RunnerLog,
  ) {}

  async start(options: { pollTimers?: boolean } = {}): Promise<void> {
    for (const cell of this.cells.all()) {
      for (const binding of bindingsFor(cell, this.cells, this.projections)) {
        const runner = new ProjectionRunner(binding, this.log);
        await runner.start();
        this.projectionRunners.push({ cell, runner });
      }
      const runtimes = new Map<string, ProcessRuntime<unknown>>();
      for (const manager of this.processes) {
        const runtime = new ProcessRuntime(manager, cell, this.clock, this.ids, this.log);
        runtimes.set(manager.name, runtime);
        const runner = new ProcessRunner(runtime, cell.readModels, cell.events, this.log);
        await runner.start();
        this.processRunners.push({ cell, runner });
      }
      const poller = new TimerPoller(cell.readModels, runtimes, this.clock, this.log);
      if (options.pollTimers !== false) poller.start();
      this.pollers.push(poller);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.pollers.map((p) => p.stop()));
    await Promise.all(this.processRunners.map(({ runner }) => runner.stop()));
    await Promise.all(this.projectionRunners.map(({ runner }) => runner.stop()));
  }

  /** Fires the timers that are due by the Clock now, in every cell; returns how many fired. */
  async fireDueTimers(): Promise<number> {
    let fired = 0;
    for (const poller of this.pollers) fired += await poller.tick();
    return fired;
  }

  /**
   * Resolves when every projection and process manager has handled everything written so far,
   * including what the process managers' own commands wrote meanwhile.
   */
  async settle(): Promise<void> {
    for (;;) {
      const heads = await this.heads();
      await Promise.all(this.processRunners.map(({ cell, runner }) => runner.whenCaughtUp(heads.get(cell.region) ?? 0n)));
      await Promise.all(this.projectionRunners.map(({ cell, runner }) => runner.whenCaughtUp(heads.get(cell.region) ?? 0n)));
      const after = await this.heads();
      if ([...after].every(([region, head]) => heads.get(region) === head)) return;
    }
  }

  private async heads(): Promise<Map<string, bigint>> {
    const heads = new Map<string, bigint>();
    for (const cell of this.cells.all()) heads.set(cell.region, (await cell.events.headPosition()) ?? 0n);
    return heads;
  }
}
