import type { EventMetadata } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';

/** What every event written on behalf of `context` records of it, at `now` on the clock `clockId` (none: the system clock). */
export function eventMetadata(context: RequestContext, now: Date, clockId: string | undefined): Omit<EventMetadata, 'schema_version'> {
  return {
    tenant_id: context.tenantId,
    environment: context.environment,
    actor: context.actor,
    request_id: context.requestId,
    correlation_id: context.correlationId ?? context.requestId,
    causation_id: context.causationId ?? context.requestId,
    occurred_at: now.toISOString(),
    ...(context.commandId && { command_id: context.commandId }),
    ...(clockId && { clock_id: clockId }),
  };
}
