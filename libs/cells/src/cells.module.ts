import { Global, Module, type DynamicModule } from '@nestjs/common';
import { SystemClock, UlidGenerator, type Clock, type Upcaster } from '@tally/kernel';
import type { WalCheckpoints } from '@tally/eventstore';
import { TallyMetrics } from '@tally/observability';
import type { TallyConfig } from './config/tally-config';
import { PublicUrl } from './config/public-url';
import type { PiiFieldSpec } from './pii/pii-codec';
import { CLOCK, ID_GENERATOR, TALLY_CONFIG } from './tokens';
import { CellRegistry } from './cell-registry';
import { openConfiguredCells } from './configured-cells';

export interface CellsOptions {
  config: TallyConfig;
  /** The personal-data fields of every context's events. */
  pii: readonly PiiFieldSpec[];
  /** The upcasters of every context's events. */
  upcasters: readonly Upcaster[];
  /** Tests pass a ManualClock; everything else runs on the system clock. */
  clock?: Clock;
  /** The embedded profile's: `as-a-backstop` when a worker thread of this process checkpoints the same files. */
  walCheckpoints?: WalCheckpoints;
}

/** What every part of a process shares: the configuration and the public URL, the clock, ids, metrics, and the cells of the configured profile. */
@Global()
@Module({})
export class CellsModule {
  static forRoot({ config, pii, upcasters, clock, walCheckpoints }: CellsOptions): DynamicModule {
    return {
      module: CellsModule,
      providers: [
        { provide: TALLY_CONFIG, useValue: config },
        { provide: PublicUrl, useValue: new PublicUrl(config.publicUrl) },
        { provide: CLOCK, useValue: clock ?? new SystemClock() },
        { provide: ID_GENERATOR, useFactory: (clock: Clock) => new UlidGenerator(clock), inject: [CLOCK] },
        { provide: TallyMetrics, useValue: new TallyMetrics() },
        { provide: CellRegistry, useFactory: (clock: Clock, metrics: TallyMetrics) => openConfiguredCells(config, clock, { pii, upcasters }, metrics, walCheckpoints), inject: [CLOCK, TallyMetrics] },
      ],
      exports: [TALLY_CONFIG, PublicUrl, CLOCK, ID_GENERATOR, TallyMetrics, CellRegistry],
    };
  }
}
