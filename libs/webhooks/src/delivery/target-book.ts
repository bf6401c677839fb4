import type { DeliveryTarget, TargetsDoc } from '../outbox/outbox-documents';

/**
 * The dispatcher's picture of the cell's endpoints (their addresses, filters, statuses and
 * secrets), kept from the outbox's targets documents as they change, one per tenant and
 * environment. An endpoint a document no longer names was deleted.
 */
export class TargetBook {
  private readonly byEndpoint = new Map<string, DeliveryTarget>();
  private readonly endpointsOf = new Map<string, readonly string[]>();

  /** A targets document as the outbox wrote it, from the change feed. */
  see(doc: TargetsDoc): void {
    for (const id of this.endpointsOf.get(doc.id) ?? []) this.byEndpoint.delete(id);
    for (const target of doc.endpoints) this.byEndpoint.set(target.id, target);
    this.endpointsOf.set(doc.id, doc.endpoints.map((target) => target.id));
  }

  /** The endpoint, enabled or disabled; undefined once deleted (or before it was seen). */
  get(endpointId: string): DeliveryTarget | undefined {
    return this.byEndpoint.get(endpointId);
  }
}
