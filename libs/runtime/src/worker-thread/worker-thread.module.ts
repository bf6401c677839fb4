import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CellRegistry } from '@tally/cells';
import { WorkerThreadHost, type WorkerThreadOptions } from './worker-thread.host';

const logger = new Logger('worker');

/**
 * The API app's worker in a thread of its own (the embedded profile's `npm start`). A thread that
 * dies ends the process, which a supervisor restarts: serving reads that no longer move would be worse.
 */
@Module({})
export class WorkerThreadModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(WorkerThreadHost) private readonly host: WorkerThreadHost) {}

  static forRoot(options: WorkerThreadOptions): DynamicModule {
    const died = (error: Error) => {
      logger.error(`The worker thread died; stopping: ${error.message}`, error.stack);
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
    };
    return {
      module: WorkerThreadModule,
      providers: [{ provide: WorkerThreadHost, useFactory: (cells: CellRegistry) => new WorkerThreadHost(options, cells.directoryChanges, died), inject: [CellRegistry] }],
      exports: [WorkerThreadHost],
    };
  }

  /** The thread starts beside the API, which serves meanwhile: reads catch up once it runs, and settle waits for it. */
  onApplicationBootstrap(): void {
    this.host.start().catch(() => undefined);
  }

  onApplicationShutdown(): Promise<void> {
    return this.host.stop();
  }
}
