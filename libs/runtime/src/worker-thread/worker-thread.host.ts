import { Worker as Thread } from 'node:worker_threads';
import type { DirectoryChanges, TallyConfig } from '@tally/cells';
import { forwardAppends } from './append-forwarder';
import type { FromWorkerThread, WorkerThreadData } from './messages';

/**
 * The thread's young generation, twice V8's default (32 MB): the worker allocates short-lived
 * objects fast (documents, events, requests), and under load scavenges took 15% of its time, with
 * objects still in use promoted to the old generation for want of room. See BENCHMARKS.md,
 * "Webhook delivery".
 */
const YOUNG_GENERATION_MB = 64;
/** How long a stopping worker may take to finish its batches before the thread is terminated. */
const STOP_TIMEOUT_MS = 10_000;

export interface WorkerThreadOptions {
  config: TallyConfig;
  /** The app's thread entry, which calls serveWorkerThread with the app's contexts. */
  entry: string;
  /** Node options of the thread; by default the process's own (`-r ./scripts/register-paths.js`). */
  execArgv?: string[];
}

/**
 * Runs the worker in a thread of this process, so projections and process managers never take
 * the request thread's time. Every append this thread makes wakes the worker's subscriptions at
 * once, and the worker's directory commits reach `directoryChanges`. The thread dying on its own
 * is reported to `died`: the API would otherwise serve ever staler reads.
 */
export class WorkerThreadHost {
  private thread: Thread | undefined;
  private stopForwarding: (() => void) | undefined;
  private started = false;
  private ready: Promise<void> | undefined;
  private stopping = false;
  private nextSettle = 0;
  private readonly settling = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(
    private readonly options: WorkerThreadOptions,
    private readonly directoryChanges: DirectoryChanges | undefined,
    private readonly died: (error: Error) => void,
  ) {}

  /** Resolves once the worker runs (its projections and process managers subscribed). */
  start(): Promise<void> {
    const thread = new Thread(this.options.entry, { workerData: { config: this.options.config } satisfies WorkerThreadData, execArgv: this.options.execArgv, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.thread = thread;
    this.stopForwarding = forwardAppends((message) => thread.postMessage(message));
    this.ready = new Promise<void>((resolve, reject) => {
      thread.on('message', (message: FromWorkerThread) => (message.kind === 'ready' ? resolve() : this.receive(message)));
      thread.on('error', (error) => (this.stopping ? undefined : this.fail(error, reject)));
      thread.on('exit', (code) => (this.stopping ? undefined : this.fail(new Error(`the worker thread exited with code ${code}`), reject)));
    }).then(() => {
      this.started = true;
    });
    return this.ready;
  }

  /** Resolves when every projection and process manager has handled everything written so far. */
  async settle(): Promise<void> {
    await this.ready;
    const thread = this.running();
    const id = this.nextSettle++;
    return new Promise((resolve, reject) => {
      this.settling.set(id, { resolve, reject });
      thread.postMessage({ kind: 'settle', id });
    });
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    if (!thread || this.stopping) return;
    this.stopping = true;
    this.stopForwarding?.();
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.postMessage({ kind: 'stop' });
    const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private receive(message: Exclude<FromWorkerThread, { kind: 'ready' }>): void {
    if (message.kind === 'directory-changed') {
      this.directoryChanges?.changed();
    } else if (message.kind === 'settled') {
      const waiter = this.settling.get(message.id);
      this.settling.delete(message.id);
      if (message.error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(`the worker thread could not settle: ${message.error}`));
    }
  }

  /** The thread failed or exited unasked, starting or later (an 'error' is followed by an 'exit': reported once). */
  private fail(error: Error, rejectStart: (error: Error) => void): void {
    if (!this.thread) return;
    this.thread = undefined;
    this.stopForwarding?.();
    for (const { reject } of this.settling.values()) reject(error);
    this.settling.clear();
    if (!this.started) rejectStart(error);
    this.died(error);
  }

  private running(): Thread {
    if (!this.thread) throw new Error('The worker thread is not running');
    return this.thread;
  }
}
