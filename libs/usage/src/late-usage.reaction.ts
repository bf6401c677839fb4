import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { asEventOf, type Reaction } from '@tally/runtime';
import type { UsageBatchAccepted } from './domain/usage.events';
import { LateUsageSettlement } from './late-usage-settlement';
import { USAGE_INGEST_PREFIX } from './usage-ingest-stream';

type SettleLateUsage = { type: 'SettleLateUsage'; data: { batch_id: string } };

/** Every accepted batch with events of a `rebill` meter may have late events to rebill: the settlement finds them in the usage projection. */
@Injectable()
export class LateUsageReaction implements Reaction<SettleLateUsage> {
  readonly name = 'late_usage';
  readonly streamPrefixes = [USAGE_INGEST_PREFIX];

  constructor(private readonly settlement: LateUsageSettlement) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'UsageBatchAccepted') return undefined;
    const { batch_id, events } = asEventOf<UsageBatchAccepted>(event).data;
    if (!events.some((usage) => usage.rebill)) return undefined;
    return { lane: event.stream, command: { type: 'SettleLateUsage' as const, data: { batch_id } } };
  }

  async dispatch({ data }: SettleLateUsage, context: RequestContext): Promise<void> {
    await this.settlement.settleBatch(context, data.batch_id);
  }
}
