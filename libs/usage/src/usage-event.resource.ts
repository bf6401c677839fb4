import type { UsageRecord } from './domain/usage.events';
import type { UsageEventResponse } from './dto/usage.dto';

export const usageEventResource = (record: UsageRecord): UsageEventResponse => ({ object: 'usage_event', ...record });
