import { Module, type DynamicModule } from '@nestjs/common';
import { CellsModule, type TallyConfig } from '@tally/cells';
import type { ComposedContexts } from './contexts/context-manifest';
import { RuntimeModule } from './runtime.module';
import { WorkerModule } from './worker.module';

/** The worker alone, without HTTP, on the system clock: a process of its own, or the API's worker thread. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: TallyConfig, contexts: ComposedContexts): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [CellsModule.forRoot({ config, pii: contexts.pii, upcasters: contexts.upcasters }), RuntimeModule, WorkerModule.forRoot(contexts)],
    };
  }
}
