import type { Clock, IdGenerator } from '@tally/kernel';
import type { CellRegistry } from './cells/cell-registry';
import type { Cell } from './cells/cell';
import { Clocks } from './clocks/clocks';
import { TestClockAdvancer } from './clocks/test-clock-advancer';
import { testClockProjection } from './clocks/test-clock.view';
import { CommandRuntime } from './commands/command-runtime';
import { TallyMetrics } from './observability/tally-metrics';
import type { Projection } from './projections/projection';
import { ProjectionRunner } from './projections/projection-runner';
import type { RunnerLog } from './runtime/supervise';
import type { ProjectionBinding } from './projections/projection-source';
import { CommandDispatcher } from './processes/command-dispatcher';
import { parkedCommandsProjection } from './processes/parked-commands.projection';
import type { ProcessManager } from './processes/process-manager';
import { ProcessRunner } from './processes/process-runner';
import { ProcessRuntime } from './processes/process-runtime';
import { TimerPoller } from './processes/timer-poller';
import { timersProjection } from './processes/timers.projection';

/** The read models the runtime keeps for itself, beside every context's. */
const RUNTIME_PROJECTIONS: readonly Projection[] = [timersProjection, parkedCommandsProjection, testClockProjection];

/** Where each projection of a cell reads and writes, under a checkpoint name unique in its store. */
export function bindingsFor(cell: Cell, cells: CellRegistry, projections: readonly Projection[]): ProjectionBinding[] {
  return [...projections, ...RUNTIME_PROJECTIONS].map((projection) => {
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

/** Anything that follows a cell's log: it starts, stops, and says when it has handled a position. */
interface Follower {
  start(): Promise<void>;
  stop(): Promise<void>;
  whenCaughtUp(position: bigint): Promise<void>;
}

interface WorkerDependencies {
  cells: CellRegistry;
  projections: readonly Projection[];
  processes: readonly ProcessManager[];
  clocks: Clocks;
  commands: CommandRuntime;
  ids: IdGenerator;
  metrics: TallyMetrics;
  log: RunnerLog;
}

/**
 * Everything that happens after a write, for every cell this process serves: projections,
 * process managers, the dispatcher of the commands they issue, timers, and test clock advances.
 */
export class Worker {
  private readonly followers: { cell: Cell; follower: Follower }[] = [];
  private readonly advancers: { cell: Cell; follower: Follower }[] = [];
  private readonly pollers: TimerPoller[] = [];

  constructor(private readonly deps: WorkerDependencies) {}

  /** A worker outside Nest (tools, tests): its own command runtime and metrics over `cells`. */
  static over(cells: CellRegistry, options: { projections: readonly Projection[]; processes?: readonly ProcessManager[]; clock: Clock; ids: IdGenerator; log: RunnerLog }): Worker {
    const clocks = new Clocks(options.clock);
    const commands = new CommandRuntime(cells, clocks, options.ids);
    return new Worker({ cells, projections: options.projections, processes: options.processes ?? [], clocks, commands, ids: options.ids, metrics: new TallyMetrics(), log: options.log });
  }

  async start(options: { pollTimers?: boolean } = {}): Promise<void> {
    const { cells, projections, processes, clocks, commands, ids, metrics, log } = this.deps;
    for (const cell of cells.all()) {
      const runtimes = new Map(processes.map((manager) => [manager.name, new ProcessRuntime(manager, cell, clocks, ids)]));
      const poller = new TimerPoller(cell.readModels, runtimes, clocks.system, log);
      const followers: Follower[] = [
        ...bindingsFor(cell, cells, projections).map((binding) => new ProjectionRunner(binding, log)),
        ...[...runtimes.values()].map((runtime) => new ProcessRunner(runtime, cell.readModels, cell.events, cell.pii, log)),
        new CommandDispatcher(cell, runtimes, cell.readModels, metrics, ids, log),
      ];
      for (const follower of followers) {
        await follower.start();
        this.followers.push({ cell, follower });
      }
      const advancer = new TestClockAdvancer(cell, commands, poller, cell.readModels, () => this.settleFollowers(), log);
      await advancer.start();
      this.advancers.push({ cell, follower: advancer });
      if (options.pollTimers !== false) poller.start();
      this.pollers.push(poller);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.pollers.map((p) => p.stop()));
    for (const { follower } of [...this.advancers, ...this.followers].reverse()) await follower.stop();
  }

  /** Fires the system clock's timers that are due now, in every cell; returns how many fired. */
  async fireDueTimers(): Promise<number> {
    let fired = 0;
    for (const poller of this.pollers) fired += await poller.tick();
    return fired;
  }

  /**
   * Resolves when every follower has handled everything written so far, including what the
   * process managers' commands and the test clock advances wrote meanwhile.
   */
  settle(): Promise<void> {
    return this.settleAll([...this.followers, ...this.advancers]);
  }

  /** Everything but the advancers, which settle the rest between the timers they fire. */
  private settleFollowers(): Promise<void> {
    return this.settleAll(this.followers);
  }

  private async settleAll(followers: readonly { cell: Cell; follower: Follower }[]): Promise<void> {
    for (;;) {
      const heads = await this.heads();
      await Promise.all(followers.map(({ cell, follower }) => follower.whenCaughtUp(heads.get(cell.region) ?? 0n)));
      const after = await this.heads();
      if ([...after].every(([region, head]) => heads.get(region) === head)) return;
    }
  }

  private async heads(): Promise<Map<string, bigint>> {
    const heads = new Map<string, bigint>();
    for (const cell of this.deps.cells.all()) heads.set(cell.region, (await cell.events.headPosition()) ?? 0n);
    return heads;
  }
}
