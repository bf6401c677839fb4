import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown, type Type } from '@nestjs/common';
import { CustomersModule, TaxIdValidationProcess, TestClockCustomersProcess } from '@tally/customers';
import type { IdGenerator } from '@tally/kernel';
import { CellRegistry, Clocks, CommandRuntime, ID_GENERATOR, TALLY_CONFIG, TallyMetrics, Worker, type ProcessManager, type RunnerLog, type TallyConfig } from '@tally/platform';
import { PROJECTIONS } from './composition';

const logger = new Logger('worker');
const log: RunnerLog = { error: (message, error) => logger.error(message, (error as Error)?.stack) };

const PROCESSES: readonly Type<ProcessManager>[] = [TaxIdValidationProcess, TestClockCustomersProcess];

/** Projections, process managers and timers for every cell this process serves. */
@Module({})
export class WorkerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  /** `extraProcesses`: process managers of tests, beside every context's. */
  static forRoot(extraProcesses: readonly Type<ProcessManager>[] = []): DynamicModule {
    return {
      module: WorkerModule,
      imports: [CustomersModule],
      providers: [
        ...extraProcesses,
        {
          provide: Worker,
          useFactory: (config: TallyConfig, cells: CellRegistry, clocks: Clocks, commands: CommandRuntime, ids: IdGenerator, metrics: TallyMetrics, ...processes: ProcessManager[]) =>
            new Worker({ cells, projections: PROJECTIONS, processes, clocks, commands, ids, metrics, log, leaseTtlMs: config.leaseTtlMs }),
          inject: [TALLY_CONFIG, CellRegistry, Clocks, CommandRuntime, ID_GENERATOR, TallyMetrics, ...PROCESSES, ...extraProcesses],
        },
      ],
      exports: [Worker],
    };
  }

  constructor(@Inject(Worker) private readonly worker: Worker) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
