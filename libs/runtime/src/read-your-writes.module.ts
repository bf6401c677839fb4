import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CellRegistry, TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { TallyMetrics } from '@tally/observability';
import type { Projection } from './projections/projection';
import { ReadYourWrites } from './queries/read-your-writes';

/** Makes the scoped reads of a process that serves the API wait for what their callers wrote. */
@Global()
@Module({})
export class ReadYourWritesModule {
  static forRoot(projections: readonly Projection[]): DynamicModule {
    return {
      module: ReadYourWritesModule,
      providers: [
        {
          provide: ReadYourWrites,
          useFactory: (cells: CellRegistry, metrics: TallyMetrics, config: TallyConfig) => new ReadYourWrites(cells, projections, metrics, config.readWaitMs),
          inject: [CellRegistry, TallyMetrics, TALLY_CONFIG],
        },
      ],
      exports: [ReadYourWrites],
    };
  }
}
