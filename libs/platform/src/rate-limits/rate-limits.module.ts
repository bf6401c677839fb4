import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CellRegistry } from '../cells/cell-registry';
import type { TallyConfig } from '../config/tally-config';
import { TALLY_CONFIG } from '../tokens';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { MongoRateLimitStore } from './mongo-rate-limit-store';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store';
import { TenantRateLimits } from './tenant-rate-limits';

/**
 * Rate limits on every tenant request. The API app imports it after PlatformModule, because global
 * guards run in the order their modules are imported and this one needs the auth guard's tenant
 * context (the worker, which serves no HTTP, does not import it). Buckets live in this process on
 * the embedded profile, and in the directory's MongoDB on the production profile, where several
 * API instances share them.
 */
@Module({
  providers: [
    { provide: RATE_LIMIT_STORE, useFactory: openRateLimitStore, inject: [TALLY_CONFIG] },
    { provide: TenantRateLimits, useFactory: (cells: CellRegistry) => new TenantRateLimits(cells.directory), inject: [CellRegistry] },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
})
export class RateLimitsModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}

async function openRateLimitStore(config: TallyConfig): Promise<RateLimitStore> {
  if (config.profile === 'embedded') return new MemoryRateLimitStore();
  if (!config.directoryMongoUrl) throw new Error('The production profile needs TALLY_DIRECTORY_MONGO_URL or MONGO_URL for the rate-limit buckets');
  return MongoRateLimitStore.connect(config.directoryMongoUrl);
}
