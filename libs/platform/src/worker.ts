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
import { FencedReadStore } from './leases/fenced-read-store';
import type { LeaseFence } from './leases/lease-fence';
import { LeasedRunner, leaseTermsOfThisProcess, type LeaseTerms, type Runner } from './leases/leased-runner';
import { Leases } from './leases/leases';

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
 * process managers and their timers. Each runs under a lease of its cell, so that among several
 * workers on one cell one instance of each runs; settle and fireDueTimers act on those this
 * process holds.
 */
export class Worker {
  private readonly projectionRunners: { cell: Cell; runner: LeasedRunner<ProjectionRunner> }[] = [];
  private readonly processRunners: { cell: Cell; runner: LeasedRunner<ProcessRunner> }[] = [];
  private readonly pollers: LeasedRunner<Runner & Pick<TimerPoller, 'tick'>>[] = [];
  private readonly leaseTerms: LeaseTerms;

  constructor(
    private readonly cells: CellRegistry,
    private readonly projections: readonly Projection[],
    private readonly processes: readonly ProcessManager<unknown>[],
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly log: RunnerLog,
    { leaseTtlMs }: { leaseTtlMs?: number } = {},
  ) {
    this.leaseTerms = leaseTermsOfThisProcess(leaseTtlMs);
  }

  async start(options: { pollTimers?: boolean } = {}): Promise<void> {
    for (const cell of this.cells.all()) {
      for (const binding of bindingsFor(cell, this.cells, this.projections)) {
        const runner = await this.leased(cell, `projection/${binding.checkpoint}`, (fence) => new ProjectionRunner({ ...binding, store: new FencedReadStore(binding.store, fence) }, this.log));
        this.projectionRunners.push({ cell, runner });
      }
      const runtimes = new Map<string, ProcessRuntime<unknown>>();
      for (const manager of this.processes) {
        const runtime = new ProcessRuntime(manager, cell, this.clock, this.ids, this.log);
        runtimes.set(manager.name, runtime);
        const runner = await this.leased(cell, `process/${manager.name}`, (fence) => new ProcessRunner(runtime, new FencedReadStore(cell.readModels, fence), cell.events, this.log));
        this.processRunners.push({ cell, runner });
      }
      // With pollTimers off (tests), the holder's poller fires timers only when fireDueTimers asks.
      const poller = await this.leased(cell, 'timer-poller', () => {
        const timers = new TimerPoller(cell.readModels, runtimes, this.clock, this.log);
        return { start: () => (options.pollTimers === false ? undefined : timers.start()), stop: () => timers.stop(), tick: () => timers.tick() };
      });
      this.pollers.push(poller);
    }
  }

  /** The lease of a runner is named after its cell and what it runs, e.g. `eu/process/tax_id_validation`. */
  private async leased<R extends Runner>(cell: Cell, name: string, make: (fence: LeaseFence) => R): Promise<LeasedRunner<R>> {
    const runner = new LeasedRunner(new Leases(cell.leases), `${cell.region}/${name}`, make, this.leaseTerms, this.log);
    await runner.start();
    return runner;
  }

  async stop(): Promise<void> {
    await Promise.all(this.pollers.map((p) => p.stop()));
    await Promise.all(this.processRunners.map(({ runner }) => runner.stop()));
    await Promise.all(this.projectionRunners.map(({ runner }) => runner.stop()));
  }

  /** Fires the timers that are due by the Clock now, in every cell; returns how many fired. */
  async fireDueTimers(): Promise<number> {
    let fired = 0;
    for (const poller of this.pollers) fired += (await poller.current?.tick()) ?? 0;
    return fired;
  }

  /**
   * Resolves when every projection and process manager has handled everything written so far,
   * including what the process managers' own commands wrote meanwhile.
   */
  async settle(): Promise<void> {
    for (;;) {
      const heads = await this.heads();
      await Promise.all(this.processRunners.map(({ cell, runner }) => runner.current?.whenCaughtUp(heads.get(cell.region) ?? 0n)));
      await Promise.all(this.projectionRunners.map(({ cell, runner }) => runner.current?.whenCaughtUp(heads.get(cell.region) ?? 0n)));
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
