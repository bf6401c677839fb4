import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown, type Type } from '@nestjs/common';
import type { IdGenerator } from '@tally/kernel';
import { CellRegistry, ID_GENERATOR, TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { TallyMetrics } from '@tally/observability';
import { Clocks } from './clocks/clocks';
import { CommandRuntime } from './commands/command-runtime';
import type { ComposedContexts } from './contexts/context-manifest';
import type { ProcessManager } from './processes/process-manager';
import type { Reaction } from './processes/reaction';
import type { CellService } from './runners/cell-service';
import type { RunnerLog } from './runners/supervise';
import { Worker, type WorkerPart } from './worker';

const WORKER_PART = Symbol('WorkerPart');

const logger = new Logger('worker');
const log: RunnerLog = { error: (message, error) => logger.error(message, (error as Error)?.stack) };

/** Projections, process managers, the dispatcher, timers and test clock advances for every cell this process serves. */
@Module({})
export class WorkerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  /** `extraProcesses`: process managers of tests, beside every context's; `part`: what this worker runs of it all. */
  static forRoot(
    contexts: Pick<ComposedContexts, 'modules' | 'projections' | 'processes' | 'reactions' | 'services' | 'timedAggregates'>,
    { extraProcesses = [], part = 'all' }: { extraProcesses?: readonly Type<ProcessManager>[]; part?: WorkerPart } = {},
  ): DynamicModule {
    const processCount = contexts.processes.length + extraProcesses.length;
    const reactionsEnd = processCount + contexts.reactions.length;
    return {
      module: WorkerModule,
      imports: [...contexts.modules],
      providers: [
        ...extraProcesses,
        { provide: WORKER_PART, useValue: part },
        {
          provide: Worker,
          useFactory: (config: TallyConfig, cells: CellRegistry, clocks: Clocks, commands: CommandRuntime, ids: IdGenerator, metrics: TallyMetrics, ...flows: (ProcessManager | Reaction | CellService)[]) =>
            new Worker({
              cells,
              projections: contexts.projections,
              processes: flows.slice(0, processCount) as ProcessManager[],
              reactions: flows.slice(processCount, reactionsEnd) as Reaction[],
              services: flows.slice(reactionsEnd) as CellService[],
              timedAggregates: contexts.timedAggregates,
              clocks,
              commands,
              ids,
              metrics,
              log,
              leaseTtlMs: config.leaseTtlMs,
            }),
          inject: [TALLY_CONFIG, CellRegistry, Clocks, CommandRuntime, ID_GENERATOR, TallyMetrics, ...contexts.processes, ...extraProcesses, ...contexts.reactions, ...contexts.services],
        },
      ],
      exports: [Worker],
    };
  }

  constructor(
    @Inject(Worker) private readonly worker: Worker,
    @Inject(WORKER_PART) private readonly part: WorkerPart,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start({ part: this.part });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
