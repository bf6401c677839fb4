import { resourceProjection } from '@tally/runtime';
import { webhookEndpointView } from './webhook-endpoint.view';

export const webhookEndpointProjection = resourceProjection(webhookEndpointView, [{ fields: ['tenant_id', 'environment', 'created_at'] }]);
