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

/** The context of a command the runtime dispatches because of a stored event: its id, and the event's clock, which the command's new streams take. */
export const commandCausedBy = (event: RecordedEvent, region: Region, actor: string, commandId: string): RequestContext => ({
  ...causedBy(event, region, actor),
  commandId,
  ...(event.metadata.clock_id && { clockId: event.metadata.clock_id }),
});
