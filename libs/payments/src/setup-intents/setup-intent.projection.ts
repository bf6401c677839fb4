import { resourceProjection } from '@tally/runtime';
import { setupIntentView } from './setup-intent.view';

/** The setup intents read model (retrieve by id, a customer's list). */
export const setupIntentProjection = resourceProjection(setupIntentView, [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'customer_id', 'created_at'] },
]);
