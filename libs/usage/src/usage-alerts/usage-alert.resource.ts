import { defineResource, scopedIndex } from '@tally/runtime';
import { usageAlertAggregate } from './usage-alert.aggregate';
import { USAGE_ALERT_STATUSES } from './usage-alert.view';

/** Usage alerts through the API: their read model and firings in the public event log, retrieve (with `as_of`) and list. */
export const usageAlertResource = defineResource({
  aggregate: usageAlertAggregate,
  indexes: [scopedIndex('created_at'), scopedIndex('subscription_id', 'created_at')],
  list: {
    sortable: ['created_at'],
    filters: {
      subscription_id: { ops: ['eq'] },
      status: { ops: ['eq'], values: USAGE_ALERT_STATUSES },
    },
  },
});
