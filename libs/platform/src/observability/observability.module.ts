import { Module, type DynamicModule } from '@nestjs/common';
import { CellRegistry } from '../cells/cell-registry';
import type { Projection } from '../projections/projection';
import { MetricsController } from './metrics.controller';
import { ProjectionLag } from './projection-lag';

/** `GET /metrics`; the projections are those whose lag it reports. TallyMetrics comes from PlatformModule. */
@Module({})
export class ObservabilityModule {
  static forRoot(projections: readonly Projection[]): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [MetricsController],
      providers: [{ provide: ProjectionLag, useFactory: (cells: CellRegistry) => new ProjectionLag(cells, projections), inject: [CellRegistry] }],
    };
  }
}
