import { Global, Module } from '@nestjs/common';
import { USAGE_READINGS } from '@tally/subscriptions';
import { LateUsageReaction } from './late-usage.reaction';
import { SettleLateUsageHandler } from './late-usage.handler';
import { MeteredSubscriptions } from './metered-subscriptions';
import { MeteredUsageReadings } from './metered-usage.readings';
import { TrackController } from './track.controller';
import { TrackUsageHandler } from './track.handler';
import { UsageController } from './usage.controller';
import { IngestUsageHandler } from './usage-ingest.handler';
import { UsageProjectionProgress } from './usage-projection-progress';
import { UsageDuplicates } from './usage-duplicates';
import { usageAlertHandlers } from './usage-alerts/usage-alert.handlers';
import { UsageAlertReadsController, UsageAlertsController } from './usage-alerts/usage-alerts.controller';
import { UsageAlertsReaction } from './usage-alerts/usage-alerts.reaction';

/** Global: the subscriptions context bills usage through the port this module fills. */
@Global()
@Module({
  controllers: [UsageController, TrackController, UsageAlertReadsController, UsageAlertsController],
  providers: [
    MeteredSubscriptions,
    IngestUsageHandler,
    UsageDuplicates,
    TrackUsageHandler,
    UsageProjectionProgress,
    MeteredUsageReadings,
    { provide: USAGE_READINGS, useExisting: MeteredUsageReadings },
    ...usageAlertHandlers,
    UsageAlertsReaction,
    SettleLateUsageHandler,
    LateUsageReaction,
  ],
  exports: [USAGE_READINGS, UsageProjectionProgress, UsageAlertsReaction, LateUsageReaction],
})
export class UsageModule {}
