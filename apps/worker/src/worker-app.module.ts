import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type TallyConfig } from '@tally/platform';
import { PII_FIELDS } from './composition';
import { WorkerModule } from './worker.module';

/** The worker alone, without HTTP, on the system clock: a process of its own, or the API's worker thread. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: TallyConfig): DynamicModule {
    return { module: WorkerAppModule, imports: [PlatformModule.forRoot({ config, pii: PII_FIELDS }), WorkerModule] };
  }
}
