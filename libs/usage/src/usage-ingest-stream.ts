import { derivedId } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';

export const USAGE_INGEST_PREFIX = 'usage_ingest-';

/** The stream a tenant's accepted usage batches are appended to, one event a batch. */
export const ingestStreamOf = (context: Pick<RequestContext, 'tenantId' | 'environment'>): string =>
  `${USAGE_INGEST_PREFIX}${derivedId('uing', [context.tenantId, context.environment])}`;

/** The position of the tenant's last accepted batch, if any: what a read of its usage must have counted. */
export async function lastIngestPosition(cell: Cell, context: RequestContext): Promise<bigint | undefined> {
  const [last] = await cell.events.readStream(ingestStreamOf(context), { direction: 'backwards', limit: 1 });
  return last?.position;
}
