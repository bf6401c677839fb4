import { Inject, Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CustomersModule, TaxIdValidationProcess } from '@tally/customers';
import type { IdGenerator } from '@tally/kernel';
import { CellRegistry, Clocks, CommandRuntime, ID_GENERATOR, TallyMetrics, Worker, type ProcessManager, type RunnerLog } from '@tally/platform';
import { PROJECTIONS } from './composition';

const logger = new Logger('worker');
const log: RunnerLog = { error: (message, error) => logger.error(message, (error as Error)?.stack) };

/** Projections, process managers and timers for every cell this process serves. */
@Module({
  imports: [CustomersModule],
  providers: [
    {
      provide: Worker,
      useFactory: (cells: CellRegistry, clocks: Clocks, commands: CommandRuntime, ids: IdGenerator, metrics: TallyMetrics, taxIds: TaxIdValidationProcess) =>
        new Worker({ cells, projections: PROJECTIONS, processes: [taxIds as ProcessManager], clocks, commands, ids, metrics, log }),
      inject: [CellRegistry, Clocks, CommandRuntime, ID_GENERATOR, TallyMetrics, TaxIdValidationProcess],
    },
  ],
  exports: [Worker],
})
export class WorkerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(Worker) private readonly worker: Worker) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
