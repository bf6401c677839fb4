import type { Cell } from '@tally/cells';
import { streamName } from '@tally/runtime';
import type { DeliveryTarget, SigningSecret } from '../outbox/outbox-documents';
import { WEBHOOK_ENDPOINT_AGGREGATE } from '../webhook-endpoint.view';

/**
 * The endpoints' signing secrets for the dispatcher. They rest sealed in the endpoints' events
 * (see webhook-endpoint.pii.ts), which the outbox's targets name by revision; each is opened the
 * first time a delivery is signed with it, and kept in memory, as the endpoints are.
 */
export class SigningSecrets {
  private readonly opened = new Map<string, string>();

  constructor(private readonly cell: Pick<Cell, 'events' | 'pii'>) {}

  /** The secrets of the endpoint that still sign at `at`, the current one first. */
  alive(target: DeliveryTarget, at: Date): Promise<string[]> {
    const alive = target.secrets.filter(({ expires_at }) => expires_at === null || expires_at > at.toISOString());
    return Promise.all(alive.map((secret) => this.open(target.id, secret)));
  }

  private async open(endpointId: string, secret: SigningSecret): Promise<string> {
    if ('secret' in secret) return secret.secret;
    const key = `${endpointId}@${secret.revision}`;
    const known = this.opened.get(key);
    if (known !== undefined) return known;
    const [event] = await this.cell.events.readStream(streamName(WEBHOOK_ENDPOINT_AGGREGATE, endpointId), { fromRevision: secret.revision, limit: 1 });
    const data = event && ((await this.cell.pii.decode(event.type, event.data)) as { secret?: unknown });
    if (typeof data?.secret !== 'string') throw new Error(`webhook endpoint ${endpointId} holds no signing secret at revision ${secret.revision}`);
    this.opened.set(key, data.secret);
    return data.secret;
  }
}
