/**
 * The embedded profile's worker thread: the worker app on connections of its own to the same
 * SQLite files, woken by the API thread's appends (see WorkerThreadHost), on the system clock.
 */
import 'reflect-metadata';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { NestFactory } from '@nestjs/core';
import { AppendNotifier } from '@tally/eventstore';
import { CellRegistry, createLog, NestJsonLogger, Worker } from '@tally/platform';
import { WorkerAppModule } from '../worker-app.module';
import type { FromWorkerThread, ToWorkerThread, WorkerThreadData } from './messages';

async function main(port: MessagePort, { config }: WorkerThreadData): Promise<void> {
  const post = (message: FromWorkerThread) => port.postMessage(message);
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config), { logger: new NestJsonLogger(createLog(config)) });
  const cells = app.get(CellRegistry);
  const worker = app.get(Worker);
  cells.directoryChanges?.listen(() => post({ kind: 'directory-changed' }));

  const stop = async () => {
    await app.close();
    await cells.close();
    post({ kind: 'stopped' });
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

if (!parentPort) throw new Error('worker-thread.main runs as a worker thread of the API (see WorkerThreadHost)');
void main(parentPort, workerData as WorkerThreadData);
