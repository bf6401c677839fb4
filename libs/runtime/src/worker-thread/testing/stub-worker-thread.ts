/**
 * A worker thread for the host's spec, with no worker in it: it is ready at once, settles at once,
 * answers another thread's appends by saying the directory changed (so a relay shows), and stops
 * when asked. The services part appends once it is ready; the part named `dies` exits with code 3
 * instead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorkerThread, ToWorkerThread, WorkerThreadData } from '../messages';

const port = parentPort!;
const { config, part } = workerData as WorkerThreadData;
const post = (message: FromWorkerThread) => port.postMessage(message);

port.on('message', (message: ToWorkerThread) => {
  if (message.kind === 'appended') post({ kind: 'directory-changed' });
  else if (message.kind === 'settle') post({ kind: 'settled', id: message.id });
  else port.close();
});
post({ kind: 'ready' });
if ((config as unknown as { dies?: string }).dies === part) process.exit(3);
if (part === 'services') post({ kind: 'appended', appends: [['eu.sqlite', ['webhook_delivery_log-we_1']]] });
