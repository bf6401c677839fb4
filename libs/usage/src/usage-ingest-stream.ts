import { derivedId } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';
import { eventMetadata } from '@tally/runtime';
import type { UsageEvent } from './domain/usage.events';

export const USAGE_INGEST_PREFIX = 'usage_ingest-';

/** The stream a tenant's accepted usage batches are appended to, one event a batch. */
export const ingestStreamOf = (context: Pick<RequestContext, 'tenantId' | 'environment'>): string =>
  `${USAGE_INGEST_PREFIX}${derivedId('uing', [context.tenantId, context.environment])}`;

/** Appends one event (`id`: a ULID) to the tenant's ingest stream, at `now` on the system clock, with no revision check; answers its position. */
export async function appendToIngestStream(cell: Cell, context: RequestContext, id: string, event: UsageEvent, now: Date): Promise<bigint> {
  const metadata = { ...eventMetadata(context, now, undefined), schema_version: cell.upcasters.currentVersion(event.type) };
  return (await cell.events.append(ingestStreamOf(context), [{ id, ...event, metadata }], { expectedRevision: 'any' })).position;
}

/** The position of the tenant's last accepted batch, if any: what a read of its usage must have counted. */
export async function lastIngestPosition(cell: Cell, context: RequestContext): Promise<bigint | undefined> {
  return (await cell.events.lastEventOf(ingestStreamOf(context)))?.position;
}
