import { Module, type DynamicModule } from '@nestjs/common';
import { RuntimeResourcesModule } from './clocks/runtime-resources.module';
import type { TallyConfig } from './config/tally-config';
import type { ComposedContexts } from './contexts/context-manifest';
import { PlatformModule } from './platform.module';
import { WorkerModule } from './worker.module';

/** The worker alone, without HTTP, on the system clock: a process of its own, or the API's worker thread. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: TallyConfig, contexts: ComposedContexts): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [PlatformModule.forRoot({ config, pii: contexts.pii, upcasters: contexts.upcasters }), RuntimeResourcesModule, WorkerModule.forRoot(contexts)],
    };
  }
}
