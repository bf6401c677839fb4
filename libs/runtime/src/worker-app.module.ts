import { Module, type DynamicModule } from '@nestjs/common';
import { CellsModule, type TallyConfig } from '@tally/cells';
import type { ComposedContexts } from './contexts/context-manifest';
import { PublicEventTypesModule } from './contexts/public-event-types.module';
import { RuntimeModule } from './runtime.module';
import type { WorkerPart } from './worker';
import { WorkerModule } from './worker.module';

/** The worker alone (or a part of it), without HTTP, on the system clock: a process of its own, or one of the API's worker threads. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: TallyConfig, contexts: ComposedContexts, part: WorkerPart = 'all'): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [
        // The followers' batches, which write the most, copy the WAL back: the services' requests never wait for that.
        CellsModule.forRoot({ config, pii: contexts.pii, upcasters: contexts.upcasters, walCheckpoints: part === 'services' ? 'as-a-backstop' : 'regularly' }),
        RuntimeModule,
        PublicEventTypesModule.forRoot(contexts),
        WorkerModule.forRoot(contexts, { part }),
      ],
    };
  }
}
