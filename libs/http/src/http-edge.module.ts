import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AGGREGATE_TYPES, ParkedCommandsGauge, ProjectionLag, type AggregateType, type Projection } from '@tally/runtime';
import { CellRegistry } from '@tally/cells';
import { HistoryController } from './admin/history.controller';
import { TestClocksController } from './test-clocks/test-clocks.controller';
import { HealthController } from './health/health.controller';
import { AuthGuard } from './auth/auth.guard';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { MetricsController } from './observability/metrics.controller';
import { ParkedCommandsController } from './admin/parked-commands.controller';
import { EventsController } from './events/events.controller';
import { RateLimitGuard } from './rate-limits/rate-limit.guard';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { ApiVersionInterceptor } from './versions/api-version.interceptor';

export interface HttpEdgeOptions {
  /** Every context's aggregate types, for the auditors' history. */
  aggregateTypes: readonly AggregateType[];
  /** The projections whose lag `/metrics` reports. */
  projections: readonly Projection[];
}

/**
 * What every request passes through (authentication, rate limits, API versions, idempotency, in
 * that order: global guards and interceptors run in the order they are provided) and the API's own
 * resources: the public event log, aggregate history, test clocks, parked commands, health and metrics.
 */
@Module({})
export class HttpEdgeModule {
  static forRoot({ aggregateTypes, projections }: HttpEdgeOptions): DynamicModule {
    return {
      module: HttpEdgeModule,
      imports: [RateLimitsModule],
      controllers: [EventsController, HistoryController, HealthController, TestClocksController, ParkedCommandsController, MetricsController],
      providers: [
        { provide: AGGREGATE_TYPES, useValue: aggregateTypes },
        { provide: ProjectionLag, useFactory: (cells: CellRegistry) => new ProjectionLag(cells, projections), inject: [CellRegistry] },
        { provide: ParkedCommandsGauge, useFactory: (cells: CellRegistry) => new ParkedCommandsGauge(cells), inject: [CellRegistry] },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: ApiVersionInterceptor },
        // After the version interceptor, so it stores responses in the current version and replays pass through it.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    };
  }
}
