import type { ContextManifest } from '@tally/runtime';
import { UsageModule } from './usage.module';
import { usageUpcasters } from './domain/usage.upcasters';
import { LateUsageReaction } from './late-usage.reaction';
import { usageProjection } from './usage.projection';
import { usageAlertResource } from './usage-alerts/usage-alert.resource';
import { UsageAlertsReaction } from './usage-alerts/usage-alerts.reaction';
import { UsageAlertIndexReaction } from './usage-alerts/usage-alert-index.reaction';
import { USAGE_SECTION } from './usage.api-sections';

/** Usage metering: batches accepted whole onto an ingest stream, counted once each into per-period aggregates that billing prices. */
export const usageContext: ContextManifest = {
  name: 'usage',
  apiSections: [USAGE_SECTION],
  module: UsageModule,
  projections: [usageProjection, usageAlertResource.projection],
  reactions: [LateUsageReaction, UsageAlertsReaction, UsageAlertIndexReaction],
  aggregateTypes: [{ idPrefix: 'ualt', type: 'usage_alert' }],
  upcasters: usageUpcasters,
};
