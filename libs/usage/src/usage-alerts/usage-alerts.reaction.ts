import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { asEventOf, type Reaction } from '@tally/runtime';
import type { UsageBatchAccepted } from '../domain/usage.events';
import { USAGE_INGEST_PREFIX } from '../usage-ingest-stream';
import { UsageAlerts } from './usage-alerts';

type CheckAlerts = { type: 'CheckUsageAlerts'; data: { subscription_ids: string[] } };

/** After each accepted batch, the alerts of the subscriptions it reached are checked, in the order the batches were accepted. */
@Injectable()
export class UsageAlertsReaction implements Reaction<CheckAlerts> {
  readonly name = 'usage_alerts';
  readonly streamPrefixes = [USAGE_INGEST_PREFIX];

  constructor(private readonly alerts: UsageAlerts) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'UsageBatchAccepted') return undefined;
    const { events } = asEventOf<UsageBatchAccepted>(event).data;
    return { lane: event.stream, command: { type: 'CheckUsageAlerts' as const, data: { subscription_ids: [...new Set(events.map((usage) => usage.subscription_id))] } } };
  }

  async dispatch({ data }: CheckAlerts, context: RequestContext): Promise<void> {
    await this.alerts.check(context, data.subscription_ids);
  }
}
