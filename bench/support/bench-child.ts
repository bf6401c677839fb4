import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A request to a bench's child process: its id pairs it with the answer. */
export interface ChildRequest {
  id: number;
  op: string;
}

/**
 * The child's side: answers each request with `answer` (`stop` with `stop`, after which the process
 * exits once the answer is sent), and first announces `ready` (as the answer to request 0).
 */
export function serveRequests<R extends ChildRequest>(ready: unknown, answer: (request: R) => Promise<unknown>, stop: () => Promise<void>): void {
  process.on('message', (message: R) => {
    const answered = message.op === 'stop' ? stop().then(() => null) : answer(message);
    answered.then(
      (value) => process.send!({ id: message.id, value }, () => (message.op === 'stop' ? process.exit(0) : undefined)),
      (error: unknown) => process.send!({ id: message.id, error: String((error as Error)?.stack ?? error) }),
    );
  });
  process.send!({ id: 0, value: ready });
}

/** A server a bench runs in a child process of its own (the bench's own script, forked), and requests to it. */
export class BenchChild<Ready, R extends ChildRequest> {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private constructor(
    private readonly process: ChildProcess,
    readonly ready: Ready,
    readonly profileDir: string | undefined,
  ) {
    process.on('message', (message: { id: number; value?: unknown; error?: string }) => {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.value);
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** Forks `script` with `args`, with the thread probe loaded (and a CPU profile into `profileDir`), and waits for its `ready`. */
  static start<Ready, R extends ChildRequest>(script: string, args: readonly string[], options: { label: string; execArgv?: readonly string[]; profileDir?: string }): Promise<BenchChild<Ready, R>> {
    const probe = join(__dirname, 'thread-heap-probe.js');
    const profiling = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
    const child = fork(script, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...(options.execArgv ?? []), '-r', probe, ...profiling] });
    return new Promise((resolve, reject) => {
      const failed = (code: number | null) => reject(new Error(`the ${options.label} child exited with ${code} before it was ready`));
      child.once('exit', failed);
      child.once('error', reject);
      child.once('message', (message: { value: Ready }) => {
        child.off('exit', failed);
        resolve(new BenchChild<Ready, R>(child, message.value, options.profileDir));
      });
    });
  }

  ask<T>(op: R['op'], extra: Partial<R> = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.process.send({ ...extra, id, op });
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    await this.ask('stop');
    await exited;
  }
}
