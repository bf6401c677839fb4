import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { NestFactory } from '@nestjs/core';
import { AppendNotifier } from '@tally/eventstore';
import { CellRegistry } from '@tally/cells';
import { createLog, NestJsonLogger } from '@tally/observability';
import type { ComposedContexts } from '../contexts/context-manifest';
import { Worker } from '../worker';
import { WorkerAppModule } from '../worker-app.module';
import { forwardAppends } from './append-forwarder';
import type { FromWorkerThread, ToWorkerThread, WorkerThreadData } from './messages';
import { lowerThisThreadsPriority } from './thread-priority';

/**
 * The body of an app's worker thread (see WorkerThreadHost): its part of the worker of `contexts`
 * on connections of its own to the same SQLite files, woken by the appends of the API's thread
 * and of the other worker thread, on the system clock, at a lower CPU priority than the request
 * thread. Its own appends go to the host, which hands them on.
 */
export function serveWorkerThread(contexts: ComposedContexts): void {
  if (!parentPort) throw new Error('serveWorkerThread runs in a worker thread of the API (see WorkerThreadHost)');
  lowerThisThreadsPriority();
  void serve(parentPort, workerData as WorkerThreadData, contexts);
}

async function serve(port: MessagePort, { config, part }: WorkerThreadData, contexts: ComposedContexts): Promise<void> {
  const post = (message: FromWorkerThread) => port.postMessage(message);
  const stopForwarding = forwardAppends(post);
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config, contexts, part), { logger: new NestJsonLogger(createLog(config)) });
  const cells = app.get(CellRegistry);
  const worker = app.get(Worker);
  cells.directoryChanges?.listen(() => post({ kind: 'directory-changed' }));

  // Closing the port leaves the thread nothing to wait for, so it exits.
  const stop = async () => {
    stopForwarding();
    await app.close();
    await cells.close();
    port.close();
  };
  // The port holds what the API thread sent while the worker started; wake-ups among it find the
  // subscriptions already reading from their checkpoints, which loses nothing.
  port.on('message', (message: ToWorkerThread) => {
    if (message.kind === 'appended') {
      for (const [file, streams] of message.appends) for (const stream of streams) AppendNotifier.deliver(file, stream);
    } else if (message.kind === 'settle') {
      worker.settle().then(
        () => post({ kind: 'settled', id: message.id }),
        (error: unknown) => post({ kind: 'settled', id: message.id, error: String(error) }),
      );
    } else {
      void stop();
    }
  });
  post({ kind: 'ready' });
}
