import { REDACTED, type PiiFieldSpec } from '@tally/cells';

const subject = (data: { webhook_endpoint_id: string }) => data.webhook_endpoint_id;
const secret = [{ path: 'secret', redacted: REDACTED }];

/**
 * The signing secrets inside an endpoint's events. Not personal data, but sealed the same way, so
 * that no secret rests in clear in the store: with a data key of the endpoint, wrapped by the
 * master key. Readers get them decoded; the auditors' history shows them as `[redacted]` (see the
 * endpoint's aggregate type), and the dispatcher opens them when it signs.
 */
export const webhookEndpointPii: PiiFieldSpec[] = [
  { eventType: 'WebhookEndpointCreated', subject, fields: secret },
  { eventType: 'WebhookEndpointSecretRotated', subject, fields: secret },
];
