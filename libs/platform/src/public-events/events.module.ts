import { Module, type DynamicModule } from '@nestjs/common';
import { AGGREGATE_TYPES, type AggregateType } from '../admin/aggregate-types';
import { HistoryController } from '../admin/history.controller';
import { EventsController } from './events.controller';

/** The public event log (`/v1/events`) and the auditors' aggregate history. */
@Module({})
export class EventLogModule {
  static forRoot(aggregateTypes: readonly AggregateType[]): DynamicModule {
    return {
      module: EventLogModule,
      controllers: [EventsController, HistoryController],
      providers: [{ provide: AGGREGATE_TYPES, useValue: aggregateTypes }],
    };
  }
}
