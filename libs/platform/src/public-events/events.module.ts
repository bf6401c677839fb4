import { Module, type DynamicModule } from '@nestjs/common';
import { AGGREGATE_TYPES, type AggregateType } from '../admin/aggregate-types';
import { HistoryController } from '../admin/history.controller';
import { HealthController } from '../health/health.controller';
import { EventsController } from './events.controller';

/** The public event log (`/v1/events`), the auditors' aggregate history, and health checks. */
@Module({})
export class EventLogModule {
  static forRoot(aggregateTypes: readonly AggregateType[]): DynamicModule {
    return {
      module: EventLogModule,
      controllers: [EventsController, HistoryController, HealthController],
      providers: [{ provide: AGGREGATE_TYPES, useValue: aggregateTypes }],
    };
  }
}
