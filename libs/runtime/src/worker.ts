import type { Clock, IdGenerator } from '@tally/kernel';
import { FencedReadStore, Leases, type Cell, type CellRegistry, type LeaseFence } from '@tally/cells';
import { TallyMetrics } from '@tally/observability';
import { Clocks } from './clocks/clocks';
import { TestClockAdvancer } from './clocks/test-clock-advancer';
import { testClockResource } from './clocks/test-clock.resource';
import { CommandRuntime } from './commands/command-runtime';
import type { Projection } from './projections/projection';
import { ProjectionRunner } from './projections/projection-runner';
import type { RunnerLog } from './runners/supervise';
import type { ProjectionBinding } from './projections/projection-source';
import { CommandDispatcher } from './processes/command-dispatcher';
import { ParkedCommandRetrier } from './processes/parked-command-retrier';
import { ParkedCommands } from './processes/parked-commands';
import { parkedCommandsProjection } from './processes/parked-commands.projection';
import type { ProcessManager } from './processes/process-manager';
import { ProcessRunner } from './processes/process-runner';
import { ProcessRuntime } from './processes/process-runtime';
import type { Reaction } from './processes/reaction';
import { ReactionRunner } from './processes/reaction-runner';
import { TimerPoller } from './processes/timer-poller';
import { AggregateTimerSource } from './processes/aggregate-timer-source';
import type { TimedAggregate } from './processes/aggregate-timers.projection';
import { ProcessTimerSource } from './processes/process-timer-source';
import { timersProjection } from './processes/timers.projection';
import type { CellService, ServiceRunner } from './runners/cell-service';
import { ScopedReads } from './queries/scoped-reads';
import { LeasedRunner, leaseTermsOfThisProcess, type LeaseTerms, type Runner } from './runners/leased-runner';

/** The read models the runtime keeps for itself, beside every context's. */
const RUNTIME_PROJECTIONS: readonly Projection[] = [timersProjection, parkedCommandsProjection, testClockResource.projection];

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
interface Follower extends Runner {
  whenCaughtUp(position: bigint): Promise<void>;
}

interface WorkerDependencies {
  cells: CellRegistry;
  projections: readonly Projection[];
  processes: readonly ProcessManager[];
  reactions: readonly Reaction[];
  services?: readonly CellService[];
  /** Aggregates whose timers fire here (their timers read model is among the projections). */
  timedAggregates?: readonly TimedAggregate[];
  clocks: Clocks;
  commands: CommandRuntime;
  ids: IdGenerator;
  metrics: TallyMetrics;
  log: RunnerLog;
  leaseTtlMs?: number;
}

type Leased<R extends Runner> = { cell: Cell; runner: LeasedRunner<R> };

/**
 * What one worker runs: everything, or one of two halves that two threads of a process run side
 * by side (see WorkerThreadHost): what follows the log (with the timers and test clock advances,
 * which settle it), or the cell services (the webhook dispatcher), whose requests then never wait
 * behind a projection's batch.
 */
export type WorkerPart = 'all' | 'followers' | 'services';

/**
 * Everything that happens after a write, for every cell this process serves: projections,
 * process managers, the dispatcher of the commands they issue, reactions, timers, and test clock
 * advances.
 * Each runs under a lease of its cell, so that among several workers on one cell one instance of
 * each runs; settle and fireDueTimers act on those this process holds.
 */
export class Worker {
  private readonly followers: Leased<Follower>[] = [];
  private readonly advancers: Leased<Follower>[] = [];
  private readonly services: Leased<ServiceRunner>[] = [];
  private readonly pollers: LeasedRunner<Runner & Pick<TimerPoller, 'tick'>>[] = [];
  private readonly retriers: LeasedRunner<Runner & Pick<ParkedCommandRetrier, 'tick'>>[] = [];
  private readonly leaseTerms: LeaseTerms;

  constructor(private readonly deps: WorkerDependencies) {
    this.leaseTerms = leaseTermsOfThisProcess(deps.leaseTtlMs);
  }

  /** A worker outside Nest (tools, tests): its own command runtime and metrics over `cells`. */
  static over(
    cells: CellRegistry,
    options: {
      projections: readonly Projection[];
      processes?: readonly ProcessManager[];
      reactions?: readonly Reaction[];
      services?: readonly CellService[];
      timedAggregates?: readonly TimedAggregate[];
      clock: Clock;
      ids: IdGenerator;
      log: RunnerLog;
      leaseTtlMs?: number;
    },
  ): Worker {
    const clocks = new Clocks(options.clock);
    const commands = new CommandRuntime(cells, clocks, options.ids);
    return new Worker({ ...options, cells, processes: options.processes ?? [], reactions: options.reactions ?? [], clocks, commands, metrics: new TallyMetrics() });
  }

  async start(options: { pollTimers?: boolean; part?: WorkerPart } = {}): Promise<void> {
    const part = options.part ?? 'all';
    for (const cell of this.deps.cells.all()) {
      if (part !== 'services') await this.startFollowing(cell, options.pollTimers !== false);
      if (part !== 'followers') {
        for (const service of this.deps.services ?? []) this.services.push(await this.leased(cell, `service/${service.name}`, (fence) => service.runnerFor(cell, fence)));
      }
    }
  }

  /** The cell's projections, process managers, reactions, command dispatcher, test clock advancer and timer poller. */
  private async startFollowing(cell: Cell, pollTimers: boolean): Promise<void> {
    const { cells, projections, processes, reactions, clocks, commands, ids, metrics, log } = this.deps;
    const runtimes = new Map(processes.map((manager) => [manager.name, new ProcessRuntime(manager, cell, clocks, ids)]));
    const fenced = (fence: LeaseFence) => new FencedReadStore(cell.readModels, fence);
    for (const binding of bindingsFor(cell, cells, projections)) {
      this.followers.push(await this.leased(cell, `projection/${binding.checkpoint}`, (fence) => new ProjectionRunner({ ...binding, store: new FencedReadStore(binding.store, fence) }, log)));
    }
    for (const runtime of runtimes.values()) {
      this.followers.push(await this.leased(cell, `process/${runtime.manager.name}`, (fence) => new ProcessRunner(runtime, fenced(fence), cell.events, cell.pii, log)));
    }
    for (const reaction of reactions) {
      this.followers.push(await this.leased(cell, `reaction/${reaction.name}`, (fence) => new ReactionRunner(reaction, cell, fenced(fence), metrics, ids, log)));
    }
    this.followers.push(await this.leased(cell, 'dispatcher', (fence) => new CommandDispatcher(cell, runtimes, fenced(fence), metrics, ids, log)));
    const timers = new TimerPoller([new ProcessTimerSource(cell.readModels, runtimes), new AggregateTimerSource(cell, this.deps.timedAggregates ?? [], commands, log)], clocks.system, log);
    this.advancers.push(await this.leased(cell, 'test-clock-advancer', (fence) => new TestClockAdvancer(cell, commands, timers, fenced(fence), () => this.settleFollowers(), log)));
    // With pollTimers off (tests), the holder's poller fires timers only when fireDueTimers asks.
    const poller = await this.leased(cell, 'timer-poller', () => ({
      start: () => (pollTimers ? timers.start() : undefined),
      stop: () => timers.stop(),
      tick: () => timers.tick(),
    }));
    this.pollers.push(poller.runner);
    const retrier = new ParkedCommandRetrier(cell, new ParkedCommands(cells, new ScopedReads(cells), clocks, ids), clocks.system, log);
    const retriers = await this.leased(cell, 'parked-command-retrier', () => ({
      start: () => (pollTimers ? retrier.start() : undefined),
      stop: () => retrier.stop(),
      tick: () => retrier.tick(),
    }));
    this.retriers.push(retriers.runner);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.pollers, ...this.retriers, ...this.services.map(({ runner }) => runner)].map((runner) => runner.stop()));
    for (const { runner } of [...this.advancers, ...this.followers].reverse()) await runner.stop();
  }

  /** Fires the system clock's timers that are due now, in every cell; returns how many fired. */
  async fireDueTimers(): Promise<number> {
    let fired = 0;
    for (const poller of this.pollers) fired += (await poller.current?.tick()) ?? 0;
    return fired;
  }

  /** Retries, in every cell, the commands parked for an hour or more (see ParkedCommandRetrier); returns how many. */
  async retryParkedCommands(): Promise<number> {
    let retried = 0;
    for (const retrier of this.retriers) retried += (await retrier.current?.tick()) ?? 0;
    return retried;
  }

  /**
   * Resolves when every follower this process holds has handled everything written so far,
   * including what the process managers' commands and the test clock advances wrote meanwhile,
   * and every cell service it holds has done what that gave it to do (the webhook dispatcher: every
   * delivery due now attempted and recorded).
   */
  settle(): Promise<void> {
    return this.settleAll([...this.followers, ...this.advancers], this.services);
  }

  /** Everything but the advancers, which settle the rest between the timers they fire. */
  private settleFollowers(): Promise<void> {
    return this.settleAll(this.followers);
  }

  private async settleAll(followers: readonly Leased<Follower>[], services: readonly Leased<ServiceRunner>[] = []): Promise<void> {
    for (;;) {
      const heads = await this.heads();
      await Promise.all(followers.map(({ cell, runner }) => runner.current?.whenCaughtUp(heads.get(cell.region) ?? 0n)));
      await Promise.all(services.map(({ runner }) => runner.current?.whenIdle?.()));
      const after = await this.heads();
      if ([...after].every(([region, head]) => heads.get(region) === head)) return;
    }
  }

  /** The lease of a runner is named after its cell and what it runs, e.g. `eu/process/tax_id_validation`. */
  private async leased<R extends Runner>(cell: Cell, name: string, make: (fence: LeaseFence) => R): Promise<Leased<R>> {
    const runner = new LeasedRunner(new Leases(cell.leases), `${cell.region}/${name}`, make, this.leaseTerms, this.deps.log);
    await runner.start();
    return { cell, runner };
  }

  private async heads(): Promise<Map<string, bigint>> {
    const heads = new Map<string, bigint>();
    for (const cell of this.deps.cells.all()) heads.set(cell.region, (await cell.events.headPosition()) ?? 0n);
    return heads;
  }
}
