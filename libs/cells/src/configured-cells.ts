import type { Clock, Upcaster } from '@tally/kernel';
import type { TallyMetrics } from '@tally/observability';
import type { TallyConfig } from './config/tally-config';
import type { PiiFieldSpec } from './pii/pii-codec';
import type { CellRegistry } from './cell-registry';
import { openEmbeddedCells } from './embedded-cells';
import { connectProductionCells } from './production-cells';

/** What only the embedded profile's cells take: how the process shares the files with its worker (see openEmbeddedCells). */
export type EmbeddedCellsOptions = Pick<Parameters<typeof openEmbeddedCells>[0], 'walCheckpoints' | 'directoryWrittenElsewhere'>;

/** The cells of the configured profile: for the apps, and for command-line tools that run beside (or instead of) the service. */
export async function openConfiguredCells(
  config: TallyConfig,
  clock: Clock,
  contexts: { pii: readonly PiiFieldSpec[]; upcasters: readonly Upcaster[] },
  metrics?: TallyMetrics,
  embedded: EmbeddedCellsOptions = {},
): Promise<CellRegistry> {
  const { pii, upcasters } = contexts;
  if (config.profile === 'embedded') {
    const { dataDir, regions, masterKey, leasesMongoUrl, readStoreMongoUrl } = config;
    return openEmbeddedCells({ dataDir, regions, clock, pii, upcasters, masterKey, metrics, leasesMongoUrl, readStoreMongoUrl, ...embedded });
  }
  if (!config.masterKey) throw new Error('The production profile needs TALLY_MASTER_KEY (base64 of 32 random bytes)');
  if (!config.directoryMongoUrl) throw new Error('The production profile needs TALLY_DIRECTORY_MONGO_URL or MONGO_URL for the key directory');
  return connectProductionCells({ regionStores: config.regionStores, directoryMongoUrl: config.directoryMongoUrl, clock, pii, upcasters, masterKey: config.masterKey, metrics });
}
