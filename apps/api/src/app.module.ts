import { Module, type DynamicModule } from '@nestjs/common';
import { CatalogModule } from '@tally/catalog';
import { CustomersModule } from '@tally/customers';
import { InvoicingModule } from '@tally/invoicing';
import { TaxModule } from '@tally/tax';
import { TenancyModule } from '@tally/tenancy';
import type { Clock } from '@tally/kernel';
import { EventLogModule, ObservabilityModule, PlatformModule, type TallyConfig } from '@tally/platform';
import { RateLimitsModule } from '@tally/platform';
import { AGGREGATE_TYPES, PII_FIELDS, PROJECTIONS } from '../../worker/src/composition';
import { WorkerModule } from '../../worker/src/worker.module';
import { WorkerThreadModule } from '../../worker/src/thread/worker-thread.module';

/**
 * Where this process runs projections, process managers and timers: in a worker thread (the
 * embedded profile's `npm start`), on the request thread (tests, which share a manual clock with
 * the worker and settle it directly), or not at all (production, where the worker is a process).
 */
export type WorkerPlacement = 'thread' | 'in-process' | false;

export interface AppOptions {
  config: TallyConfig;
  worker: WorkerPlacement;
  /** The API's clock, and the worker's when it runs in process; a worker thread runs on the system clock. */
  clock?: Clock;
  /** Node options of the worker thread (tests pass a TypeScript loader); by default the process's own. */
  workerExecArgv?: string[];
}

@Module({})
export class AppModule {
  static forRoot({ config, worker, clock, workerExecArgv }: AppOptions): DynamicModule {
    if (worker === 'thread' && clock) throw new Error('A worker thread runs on the system clock; run the worker in process to share a clock with it');
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, pii: PII_FIELDS, clock }),
        RateLimitsModule,
        EventLogModule.forRoot(AGGREGATE_TYPES),
        ObservabilityModule.forRoot(PROJECTIONS),
        TenancyModule,
        CustomersModule,
        CatalogModule,
        TaxModule,
        InvoicingModule,
        ...(worker === 'in-process' ? [WorkerModule] : []),
        ...(worker === 'thread' ? [WorkerThreadModule.forRoot({ config, execArgv: workerExecArgv })] : []),
      ],
    };
  }
}
