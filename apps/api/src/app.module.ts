import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { Clock } from '@tally/kernel';
import { EventLogModule, ObservabilityModule, PlatformModule, RateLimitsModule, RuntimeResourcesModule, WorkerModule, type ProcessManager, type TallyConfig } from '@tally/platform';
import { CONTEXTS } from './contexts';

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
        PlatformModule.forRoot({ config, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters, clock }),
        RateLimitsModule,
        EventLogModule.forRoot(CONTEXTS.aggregateTypes),
        RuntimeResourcesModule,
        ObservabilityModule.forRoot(CONTEXTS.projections),
        ...CONTEXTS.modules,
        ...(worker ? [WorkerModule.forRoot(CONTEXTS, extraProcesses)] : []),
      ],
    };
  }
}
