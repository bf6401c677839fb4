import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { CatalogModule } from '@tally/catalog';
import { CustomersModule } from '@tally/customers';
import { InvoicingModule } from '@tally/invoicing';
import { TaxModule } from '@tally/tax';
import { TenancyModule } from '@tally/tenancy';
import type { Clock } from '@tally/kernel';
import { EventLogModule, ObservabilityModule, PlatformModule, RuntimeResourcesModule, type ProcessManager, type TallyConfig } from '@tally/platform';
import { RateLimitsModule } from '@tally/platform';
import { AGGREGATE_TYPES, PII_FIELDS, PROJECTIONS, UPCASTERS } from '../../worker/src/composition';
import { WorkerModule } from '../../worker/src/worker.module';

export interface AppOptions {
  config: TallyConfig;
  /** Run projections, process managers and timers in this process (the embedded profile does). */
  worker: boolean;
  clock?: Clock;
  /** Process managers of tests, run beside every context's. */
  extraProcesses?: readonly Type<ProcessManager>[];
}

@Module({})
export class AppModule {
  static forRoot({ config, worker, clock, extraProcesses }: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, pii: PII_FIELDS, upcasters: UPCASTERS, clock }),
        RateLimitsModule,
        EventLogModule.forRoot(AGGREGATE_TYPES),
        RuntimeResourcesModule,
        ObservabilityModule.forRoot(PROJECTIONS),
        TenancyModule,
        CustomersModule,
        CatalogModule,
        TaxModule,
        InvoicingModule,
        ...(worker ? [WorkerModule.forRoot(extraProcesses)] : []),
      ],
    };
  }
}
