import type { RecordedEvent } from '@tally/eventstore';
import type { Region, RequestContext } from '@tally/cells';

/** The context of work the runtime does because of a stored event: its tenant and flow, no request. */
export const causedBy = (event: RecordedEvent, region: Region, actor: string): RequestContext => ({
  tenantId: event.metadata.tenant_id,
  environment: event.metadata.environment,
  region,
  actor,
  requestId: null,
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
});
