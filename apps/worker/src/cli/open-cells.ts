import type { Clock } from '@tally/kernel';
import { openEmbeddedCells, type CellRegistry, type TallyConfig } from '@tally/platform';
import { connectProductionCells } from '@tally/platform/cells/production-cells';
import { PII_FIELDS, UPCASTERS } from '../composition';

/** The cells of the configured profile, for command-line tools that run beside (or instead of) the service. */
export async function openCellsFor(config: TallyConfig, clock: Clock): Promise<CellRegistry> {
  if (config.profile === 'embedded') {
    return openEmbeddedCells({ dataDir: config.dataDir, regions: config.regions, clock, pii: PII_FIELDS, upcasters: UPCASTERS, masterKey: config.masterKey });
  }
  if (!config.masterKey || !config.directoryMongoUrl) throw new Error('The production profile needs TALLY_MASTER_KEY and MONGO_URL');
  return connectProductionCells({ regionStores: config.regionStores, directoryMongoUrl: config.directoryMongoUrl, clock, pii: PII_FIELDS, upcasters: UPCASTERS, masterKey: config.masterKey });
}
