import { resourceProjection } from '@tally/runtime';
import { usageAlertView } from './usage-alert.view';

/** The usage alerts read model, and their firings in the public event log. */
export const usageAlertProjection = resourceProjection(usageAlertView, [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'subscription_id', 'created_at'] },
]);
