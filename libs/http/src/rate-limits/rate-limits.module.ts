import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { MongoRateLimitStore } from './mongo-rate-limit-store';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store';

/**
 * The buckets the rate-limit guard counts in: in this process on the embedded profile, in the
 * directory's MongoDB on the production profile, where several API instances share them.
 */
@Module({
  providers: [
    { provide: RATE_LIMIT_STORE, useFactory: openRateLimitStore, inject: [TALLY_CONFIG] },
  ],
  exports: [RATE_LIMIT_STORE],
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
