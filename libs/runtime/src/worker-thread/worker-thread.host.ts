import { Worker as Thread } from 'node:worker_threads';
import type { DirectoryChanges, TallyConfig } from '@tally/cells';
import type { WorkerPart } from '../worker';
import { forwardAppends } from './append-forwarder';
import type { Appended, FromWorkerThread, ToWorkerThread, WorkerThreadData } from './messages';

/**
 * Each thread's young generation, twice V8's default (32 MB): the worker allocates short-lived
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
 * The worker's two parts, each in a thread of its own: the webhook dispatcher's requests never
 * wait behind a projection's batch, which blocks its thread while SQLite writes it. See
 * BENCHMARKS.md, "Webhook delivery".
 */
const PARTS: readonly WorkerPart[] = ['followers', 'services'];

/**
 * Runs the worker in threads of this process, so projections, process managers and the webhook
 * dispatcher never take the request thread's time. Every append this thread or a worker thread
 * makes wakes the subscriptions of the others at once, and the worker's directory commits reach
 * `directoryChanges`. A thread dying on its own is reported to `died`: the API would otherwise
 * serve ever staler reads, or send no webhooks.
 */
export class WorkerThreadHost {
  private threads: Thread[] = [];
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

  /** Resolves once the worker runs (its projections, process managers and services subscribed). */
  start(): Promise<void> {
    this.threads = PARTS.map((part) => new Thread(this.options.entry, { workerData: { config: this.options.config, part } satisfies WorkerThreadData, execArgv: this.options.execArgv, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } }));
    this.stopForwarding = forwardAppends((message) => this.post(message));
    this.ready = new Promise<void>((resolve, reject) => {
      let readyCount = 0;
      for (const thread of this.threads) {
        thread.on('message', (message: FromWorkerThread) => (message.kind === 'ready' ? ++readyCount === this.threads.length && resolve() : this.receive(message, thread)));
        thread.on('error', (error) => this.fail(error, reject));
        thread.on('exit', (code) => this.fail(new Error(`a worker thread exited with code ${code}`), reject));
      }
    }).then(() => {
      this.started = true;
    });
    return this.ready;
  }

  /** Resolves when every projection and process manager has handled everything written so far. */
  async settle(): Promise<void> {
    await this.ready;
    await Promise.all(this.running().map((thread) => this.settleIn(thread)));
  }

  async stop(): Promise<void> {
    const threads = this.threads;
    if (threads.length === 0 || this.stopping) return;
    this.stopping = true;
    this.stopForwarding?.();
    await Promise.all(
      threads.map(async (thread) => {
        const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
        thread.postMessage({ kind: 'stop' } satisfies ToWorkerThread);
        const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private receive(message: Exclude<FromWorkerThread, { kind: 'ready' }>, from: Thread): void {
    if (message.kind === 'appended') {
      this.post(message, from);
    } else if (message.kind === 'directory-changed') {
      this.directoryChanges?.changed();
    } else {
      const waiter = this.settling.get(message.id);
      this.settling.delete(message.id);
      if (message.error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(`a worker thread could not settle: ${message.error}`));
    }
  }

  private settleIn(thread: Thread): Promise<void> {
    return new Promise((resolve, reject) => {
      const id = this.nextSettle++;
      this.settling.set(id, { resolve, reject });
      thread.postMessage({ kind: 'settle', id } satisfies ToWorkerThread);
    });
  }

  /** Hands appends to every worker thread but the one that made them. */
  private post(message: Appended, from?: Thread): void {
    for (const thread of this.threads) if (thread !== from) thread.postMessage(message);
  }

  /** A thread failed or exited unasked (not while stopping), starting or later: the others are stopped, and it is reported once. */
  private fail(error: Error, rejectStart: (error: Error) => void): void {
    if (this.stopping) return;
    const threads = this.threads;
    this.stopping = true;
    this.threads = [];
    this.stopForwarding?.();
    for (const thread of threads) void thread.terminate();
    for (const { reject } of this.settling.values()) reject(error);
    this.settling.clear();
    if (!this.started) rejectStart(error);
    this.died(error);
  }

  private running(): Thread[] {
    if (this.threads.length === 0) throw new Error('The worker threads are not running');
    return this.threads;
  }
}
