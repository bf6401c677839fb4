import { Global, Module } from '@nestjs/common';
import { SubscriptionsModule, USAGE_READINGS } from '@tally/subscriptions';
import { LateUsageReaction } from './late-usage.reaction';
import { LateUsageSettlement } from './late-usage-settlement';
import { MeteredSubscriptions } from './metered-subscriptions';
import { MeteredUsageReadings } from './metered-usage.readings';
import { TrackController } from './track.controller';
import { UsageController } from './usage.controller';
import { UsageIngest } from './usage-ingest';
import { UsageProjectionProgress } from './usage-projection-progress';
import { UsageDuplicates } from './usage-duplicates';
import { UsageTracking } from './usage-tracking';
import { UsageAlerts } from './usage-alerts/usage-alerts';
import { SubscriptionUsageAlerts } from './usage-alerts/subscription-usage-alerts';
import { UsageAlertIndexReaction } from './usage-alerts/usage-alert-index.reaction';
import { UsageAlertReadsController, UsageAlertsController } from './usage-alerts/usage-alerts.controller';
import { UsageAlertsReaction } from './usage-alerts/usage-alerts.reaction';

/** Global: the subscriptions context bills usage through the port this module fills. */
@Global()
@Module({
  imports: [SubscriptionsModule],
  controllers: [UsageController, TrackController, UsageAlertReadsController, UsageAlertsController],
  providers: [
    MeteredSubscriptions,
    UsageIngest,
    UsageDuplicates,
    UsageTracking,
    UsageProjectionProgress,
    MeteredUsageReadings,
    { provide: USAGE_READINGS, useExisting: MeteredUsageReadings },
    UsageAlerts,
    SubscriptionUsageAlerts,
    UsageAlertIndexReaction,
    UsageAlertsReaction,
    LateUsageSettlement,
    LateUsageReaction,
  ],
  exports: [USAGE_READINGS, UsageProjectionProgress, UsageAlertsReaction, LateUsageReaction, UsageAlertIndexReaction],
})
export class UsageModule {}
