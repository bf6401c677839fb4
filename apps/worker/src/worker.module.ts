import { Inject, Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CustomersModule, TaxIdValidationProcess } from '@tally/customers';
import type { Clock, IdGenerator } from '@tally/kernel';
import { CellRegistry, CLOCK, ID_GENERATOR, TALLY_CONFIG, Worker, type RunnerLog, type TallyConfig } from '@tally/platform';
import { PROJECTIONS } from './composition';

const logger = new Logger('worker');
const log: RunnerLog = { error: (message, error) => logger.error(message, (error as Error)?.stack) };

/** Projections, process managers and timers for every cell this process serves. */
@Module({
  imports: [CustomersModule],
  providers: [
    {
      provide: Worker,
      useFactory: (cells: CellRegistry, clock: Clock, ids: IdGenerator, taxIds: TaxIdValidationProcess, config: TallyConfig) =>
        new Worker(cells, PROJECTIONS, [taxIds], clock, ids, log, { leaseTtlMs: config.leaseTtlMs }),
      inject: [CellRegistry, CLOCK, ID_GENERATOR, TaxIdValidationProcess, TALLY_CONFIG],
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
