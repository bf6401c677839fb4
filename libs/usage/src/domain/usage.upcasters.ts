import type { Upcaster } from '@tally/kernel';
import type { LateUsageSettled } from './usage.events';

/** Version 1 of `LateUsageSettled` had no `period_end`: the handler that recorded it issued the corrected invoice itself, so nothing reacts to it now. */
const lateUsageSettledV1: Upcaster = {
  eventType: 'LateUsageSettled',
  fromVersion: 1,
  upcast: (data: Omit<LateUsageSettled['data'], 'period_end'>): LateUsageSettled['data'] => ({ ...data, period_end: null }),
};

export const usageUpcasters: readonly Upcaster[] = [lateUsageSettledV1];
