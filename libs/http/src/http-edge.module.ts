import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AGGREGATE_TYPES, ParkedCommandsGauge, ProjectionLag, ReadYourWritesModule, type AggregateType, type ApiSection, type Projection } from '@tally/runtime';
import { CellRegistry } from '@tally/cells';
import { HistoryController } from './admin/history.controller';
import { TestClockReadsController, TestClocksController } from './test-clocks/test-clocks.controller';
import { HealthController } from './health/health.controller';
import { AuthGuard } from './auth/auth.guard';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { MetricsController } from './observability/metrics.controller';
import { ParkedCommandsController } from './admin/parked-commands.controller';
import { EventsController } from './events/events.controller';
import { EVENT_TYPE_FILTER, type EventTypeFilter } from './events/event-type-filter';
import { API_SECTIONS, referenceSections } from './openapi/api-tags';
import { RateLimitGuard } from './rate-limits/rate-limit.guard';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { QueryParametersGuard } from './query/query-parameters.guard';
import { EarlyAnswerAdmission } from './rate-limits/early-answer-admission';
import { ApiVersionInterceptor } from './versions/api-version.interceptor';
import { SinceApiVersionGuard } from './versions/since-api-version';

export interface HttpEdgeOptions {
  /** Every context's aggregate types, for the auditors' history. */
  aggregateTypes: readonly AggregateType[];
  /** The projections whose lag `/metrics` reports, and which the callers' reads wait for (see ReadYourWrites). */
  projections: readonly Projection[];
  /** What the event log's `type` filter takes in a version: the catalogue of public event types that webhook endpoints of that version subscribe to. */
  eventTypeFilter: EventTypeFilter;
  /** Every context's sections of the API reference; the API's own join them. */
  apiSections: readonly ApiSection[];
}

/**
 * What every request passes through (authentication, rate limits, the query parameters it may
 * take, API versions, idempotency, in that order: global guards and interceptors run in the order
 * they are provided) and the API's own resources: the public event log, aggregate history, test
 * clocks, parked commands, health and metrics.
 */
@Module({})
export class HttpEdgeModule {
  static forRoot({ aggregateTypes, projections, eventTypeFilter, apiSections }: HttpEdgeOptions): DynamicModule {
    return {
      module: HttpEdgeModule,
      imports: [RateLimitsModule, ReadYourWritesModule.forRoot(projections)],
      controllers: [EventsController, HistoryController, HealthController, TestClockReadsController, TestClocksController, ParkedCommandsController, MetricsController],
      providers: [
        { provide: AGGREGATE_TYPES, useValue: aggregateTypes },
        { provide: EVENT_TYPE_FILTER, useValue: eventTypeFilter },
        { provide: API_SECTIONS, useValue: referenceSections(apiSections) },
        { provide: ProjectionLag, useFactory: (cells: CellRegistry) => new ProjectionLag(cells, projections), inject: [CellRegistry] },
        { provide: ParkedCommandsGauge, useFactory: (cells: CellRegistry) => new ParkedCommandsGauge(cells), inject: [CellRegistry] },
        AuthGuard,
        RateLimitGuard,
        EarlyAnswerAdmission,
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useClass: SinceApiVersionGuard },
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useClass: QueryParametersGuard },
        { provide: APP_INTERCEPTOR, useClass: ApiVersionInterceptor },
        // After the version interceptor, so it stores responses in the current version and replays pass through it.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
      exports: [EarlyAnswerAdmission],
    };
  }
}
