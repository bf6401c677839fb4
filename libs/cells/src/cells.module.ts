import { Global, Module, type DynamicModule } from '@nestjs/common';
import { SystemClock, UlidGenerator, type Clock, type Upcaster } from '@tally/kernel';
import { TallyMetrics } from '@tally/observability';
import type { TallyConfig } from './config/tally-config';
import { PublicUrl } from './config/public-url';
import type { PiiFieldSpec } from './pii/pii-codec';
import { CLOCK, ID_GENERATOR, TALLY_CONFIG } from './tokens';
import { CellRegistry } from './cell-registry';
import { openConfiguredCells, type EmbeddedCellsOptions } from './configured-cells';

export interface CellsOptions extends EmbeddedCellsOptions {
  config: TallyConfig;
  /** The personal-data fields of every context's events. */
  pii: readonly PiiFieldSpec[];
  /** The upcasters of every context's events. */
  upcasters: readonly Upcaster[];
  /** Tests pass a ManualClock; everything else runs on the system clock. */
  clock?: Clock;
}

/** What every part of a process shares: the configuration and the public URL, the clock, ids, metrics, and the cells of the configured profile. */
@Global()
@Module({})
export class CellsModule {
  static forRoot({ config, pii, upcasters, clock, ...embedded }: CellsOptions): DynamicModule {
    return {
      module: CellsModule,
      providers: [
        { provide: TALLY_CONFIG, useValue: config },
        { provide: PublicUrl, useValue: new PublicUrl(config.publicUrl) },
        { provide: CLOCK, useValue: clock ?? new SystemClock() },
        { provide: ID_GENERATOR, useFactory: (clock: Clock) => new UlidGenerator(clock), inject: [CLOCK] },
        { provide: TallyMetrics, useValue: new TallyMetrics() },
        { provide: CellRegistry, useFactory: (clock: Clock, metrics: TallyMetrics) => openConfiguredCells(config, clock, { pii, upcasters }, metrics, embedded), inject: [CLOCK, TallyMetrics] },
      ],
      exports: [TALLY_CONFIG, PublicUrl, CLOCK, ID_GENERATOR, TallyMetrics, CellRegistry],
    };
  }
}
