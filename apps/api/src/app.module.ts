import { extname, join } from 'node:path';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { Clock } from '@tally/kernel';
import { CellsModule, type TallyConfig } from '@tally/cells';
import { API_VERSIONS, HttpEdgeModule } from '@tally/http';
import { PublicEventTypesModule, RuntimeModule, WorkerModule, WorkerThreadModule, type ProcessManager } from '@tally/runtime';
import { catalogueInVersion, eventCatalogue, isEventFilter } from '@tally/webhooks';
import { CONTEXTS } from '../../contexts';

/** What the event log's `type` filter takes in each version: what webhook endpoints of that version subscribe to. */
const EVENT_CATALOGUES = new Map(API_VERSIONS.map((version) => [version, catalogueInVersion(eventCatalogue(CONTEXTS.publicEventTypes), version)]));

/** Compiled, the thread's entry is JavaScript beside this file; under ts-jest it is the TypeScript source. */
const WORKER_THREAD_ENTRY = join(__dirname, `worker-thread.main${extname(__filename)}`);

/**
 * Where this process runs projections, process managers and timers: in a worker thread (the
 * embedded profile's `npm start`), on the request thread (tests, which share a manual clock with
 * the worker and settle it directly), or not at all (production, where the worker is a process;
 * an embedded API process beside the one that runs it on the same data folder).
 */
export type WorkerPlacement = 'thread' | 'in-process' | false;

export interface AppOptions {
  config: TallyConfig;
  worker: WorkerPlacement;
  /** The API's clock, and the worker's when it runs in process; a worker thread runs on the system clock. */
  clock?: Clock;
  /** Node options of the worker thread (tests pass a TypeScript loader); by default the process's own. */
  workerExecArgv?: string[];
  /** Process managers of tests, run beside every context's (worker in process only). */
  extraProcesses?: readonly Type<ProcessManager>[];
}

@Module({})
export class AppModule {
  static forRoot({ config, worker, clock, workerExecArgv, extraProcesses }: AppOptions): DynamicModule {
    if (worker === 'thread' && clock) throw new Error('A worker thread runs on the system clock; run the worker in process to share a clock with it');
    return {
      module: AppModule,
      imports: [
        // The worker thread's projections commit to the same files after whatever requests append: it checkpoints them, so that no request waits for a checkpoint.
        // Without a worker here, the key directory is written by another process's, which this one does not hear from.
        CellsModule.forRoot({ config, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters, clock, walCheckpoints: worker === 'thread' ? 'as-a-backstop' : 'regularly', directoryWrittenElsewhere: worker === false }),
        RuntimeModule,
        PublicEventTypesModule.forRoot(CONTEXTS),
        HttpEdgeModule.forRoot({
          aggregateTypes: CONTEXTS.aggregateTypes,
          projections: CONTEXTS.projections,
          eventTypeFilter: (entry, version) => isEventFilter(entry, EVENT_CATALOGUES.get(version)!),
          apiSections: CONTEXTS.apiSections,
        }),
        ...CONTEXTS.modules,
        ...(worker === 'in-process' ? [WorkerModule.forRoot(CONTEXTS, { extraProcesses })] : []),
        ...(worker === 'thread' ? [WorkerThreadModule.forRoot({ config, entry: WORKER_THREAD_ENTRY, execArgv: workerExecArgv })] : []),
      ],
    };
  }
}
