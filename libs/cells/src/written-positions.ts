/**
 * The newest position in the log that this process appended at, per tenant and environment: what
 * the reads of that tenant's callers must see (see ReadYourWrites). In memory, so it covers the
 * writes made through this process; a start covers the earlier ones by waiting for the log's head.
 */
export class WrittenPositions {
  private readonly latest = new Map<string, bigint>();
  private newestOfAll: bigint | undefined;

  note(tenantId: string, environment: string, position: bigint): void {
    if (this.newestOfAll === undefined || position > this.newestOfAll) this.newestOfAll = position;
    const key = keyOf(tenantId, environment);
    const known = this.latest.get(key);
    if (known === undefined || position > known) this.latest.set(key, position);
  }

  of(tenantId: string, environment: string): bigint | undefined {
    return this.latest.get(keyOf(tenantId, environment));
  }

  /** The newest position of any tenant's. */
  newest(): bigint | undefined {
    return this.newestOfAll;
  }
}

const keyOf = (tenantId: string, environment: string): string => `${tenantId}/${environment}`;
