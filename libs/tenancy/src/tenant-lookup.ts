import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import { CellRegistry, type Region } from '@tally/cells';
import { TENANTS, type TenantEntry } from '@tally/http';

/**
 * Finds a tenant's region: from the directory, or (right after creation, before the directory
 * caught up) by looking for the tenant's stream in each cell this process serves.
 */
@Injectable()
export class TenantLookup {
  constructor(private readonly cells: CellRegistry) {}

  async regionOf(tenantId: string): Promise<Region> {
    const entry = await this.cells.directory.get<TenantEntry>(TENANTS, tenantId);
    if (entry) return entry.region;
    for (const cell of this.cells.all()) {
      if ((await cell.events.readStream(`tenant-${tenantId}`, { limit: 1 })).length > 0) return cell.region;
    }
    throw DomainError.notFound('tenant.not_found', `No tenant ${tenantId}`);
  }
}
