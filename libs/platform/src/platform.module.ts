import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { SystemClock, UlidGenerator, type Clock, type IdGenerator, type Upcaster } from '@tally/kernel';
import { CellRegistry } from './cells/cell-registry';
import { openConfiguredCells } from './cells/configured-cells';
import { CommandRuntime } from './commands/command-runtime';
import { Clocks } from './clocks/clocks';
import type { TallyConfig } from './config/tally-config';
import { AuthGuard } from './http/auth.guard';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import type { PiiFieldSpec } from './pii/pii-codec';
import { ScopedReads } from './queries/scoped-reads';
import { TallyMetrics } from './observability/tally-metrics';
import { CLOCK, ID_GENERATOR, TALLY_CONFIG } from './tokens';
import { ApiVersionInterceptor } from './versions/api-version.interceptor';

export interface PlatformOptions {
  config: TallyConfig;
  /** The personal-data fields of every context's events. */
  pii: readonly PiiFieldSpec[];
  /** The upcasters of every context's events. */
  upcasters: readonly Upcaster[];
  /** Tests pass a ManualClock; everything else runs on the system clock. */
  clock?: Clock;
}

/** The ports and runtimes every context shares: clock, ids, cells, command runtime, scoped reads, auth. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: TALLY_CONFIG, useValue: options.config },
      { provide: CLOCK, useValue: options.clock ?? new SystemClock() },
      { provide: ID_GENERATOR, useFactory: (clock: Clock) => new UlidGenerator(clock), inject: [CLOCK] },
      { provide: TallyMetrics, useValue: new TallyMetrics() },
      { provide: CellRegistry, useFactory: (clock: Clock, metrics: TallyMetrics) => openCells(options, clock, metrics), inject: [CLOCK, TallyMetrics] },
      { provide: Clocks, useFactory: (clock: Clock) => new Clocks(clock), inject: [CLOCK] },
      {
        provide: CommandRuntime,
        useFactory: (cells: CellRegistry, clocks: Clocks, ids: IdGenerator) => new CommandRuntime(cells, clocks, ids),
        inject: [CellRegistry, Clocks, ID_GENERATOR],
      },
      { provide: ScopedReads, useFactory: (cells: CellRegistry) => new ScopedReads(cells), inject: [CellRegistry] },
      { provide: APP_GUARD, useClass: AuthGuard },
      { provide: APP_INTERCEPTOR, useClass: ApiVersionInterceptor },
      // After the version interceptor, so it stores responses in the current version and replays pass through it.
      { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    ];
    return {
      module: PlatformModule,
      imports: [CqrsModule.forRoot()],
      providers,
      exports: [TALLY_CONFIG, CLOCK, ID_GENERATOR, CellRegistry, Clocks, CommandRuntime, ScopedReads, CqrsModule, TallyMetrics],
    };
  }
}

const openCells = ({ config, pii, upcasters }: PlatformOptions, clock: Clock, metrics: TallyMetrics): Promise<CellRegistry> =>
  openConfiguredCells(config, clock, { pii, upcasters }, metrics);
