import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { Reaction } from '@tally/runtime';
import type { UsageAlertEvent } from '../domain/usage-alert.events';
import { SubscriptionUsageAlerts } from './subscription-usage-alerts';

export const USAGE_ALERT_INDEX_REACTION = 'usage_alert_index';

type IndexUsageAlert = { type: 'IndexUsageAlert'; data: { usage_alert_id: string } };

const CHANGES_ACTIVITY: ReadonlySet<UsageAlertEvent['type']> = new Set(['UsageAlertCreated', 'UsageAlertArchived']);

/**
 * Keeps the subscription's alert index as each alert stands. The request that creates an alert
 * records it itself, under this reaction's command id, so an alert checks the very next batch; the
 * reaction does it again, to no effect, unless that request died first (and for alerts created
 * before the index existed: it starts from the beginning of the log).
 */
@Injectable()
export class UsageAlertIndexReaction implements Reaction<IndexUsageAlert> {
  readonly name = USAGE_ALERT_INDEX_REACTION;
  readonly streamPrefixes = ['usage_alert-'];

  constructor(private readonly index: SubscriptionUsageAlerts) {}

  commandOf(event: RecordedEvent) {
    if (!CHANGES_ACTIVITY.has(event.type as UsageAlertEvent['type'])) return undefined;
    const { usage_alert_id } = event.data as { usage_alert_id: string };
    return { lane: usage_alert_id, command: { type: 'IndexUsageAlert' as const, data: { usage_alert_id } } };
  }

  async dispatch({ data }: IndexUsageAlert, context: RequestContext): Promise<void> {
    await this.index.record(context, data.usage_alert_id);
  }
}
