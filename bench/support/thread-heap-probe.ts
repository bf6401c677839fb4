/**
 * Preloaded into a bench child (`node -r …/thread-heap-probe.js`), and so into each of its worker
 * threads, which inherit the process's options: every worker thread answers on a BroadcastChannel
 * with its own V8 heap, its CPU time, the delays of its event loop and the time its SQLite
 * transactions spent beginning and committing (see `sqliteTimes`). `process.memoryUsage()`
 * knows only the heap of the thread that calls it, and Tally's projections run in the worker thread.
 * A worker thread answers between two tasks of its event loop, so how long it took to answer is
 * itself a measure of how long it kept its loop busy.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { BroadcastChannel, isMainThread, threadId, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { cpuMsOf } from './cpu-time';

const CHANNEL = 'bench:thread-heaps';

export interface ThreadHeap {
  threadId: number;
  /** The part of Tally's worker the thread runs (`followers`, `services`), or null. */
  part: string | null;
  /** The thread's id in the kernel (/proc/self/task/<tid>). */
  tid: number;
  /** V8's used and total heap of the thread, in MiB. */
  usedMiB: number;
  totalMiB: number;
  /** CPU time of the thread so far (user + system, /proc/thread-self/stat), in ms. */
  cpuMs: number;
  /** The longest delay of the thread's event loop since the last question, in ms (NaN unmeasured). */
  maxLoopDelayMs: number;
  /** How long the thread took to answer, in ms (0 for the asking thread). */
  answeredAfterMs: number;
  /** Its SQLite transactions since the last question. */
  sqlite: SqliteTimes;
}

/** Time in the statements that begin and commit better-sqlite3's transactions, in ms. */
export interface SqliteTimes {
  /** BEGIN IMMEDIATE: waiting for the write lock when another connection holds it. */
  begin: StatementTimes;
  /** COMMIT: writing the WAL, and a checkpoint when the WAL has grown past its limit. */
  commit: StatementTimes;
}

export interface StatementTimes {
  count: number;
  totalMs: number;
  maxMs: number;
  over50: number;
}

const emptyTimes = (): StatementTimes => ({ count: 0, totalMs: 0, maxMs: 0, over50: 0 });
let times: SqliteTimes = { begin: emptyTimes(), commit: emptyTimes() };

/**
 * Wraps `run` of the BEGIN IMMEDIATE and COMMIT statements better-sqlite3 prepares for its
 * transaction functions (lib/methods/transaction.js prepares them on the native database object),
 * to time them; nothing else changes. The product code is not touched.
 */
function timeTransactions(): void {
  const cppdb = (require('better-sqlite3/lib/util') as { cppdb: symbol }).cppdb;
  const probe = new Database(':memory:');
  const native = Object.getPrototypeOf((probe as unknown as Record<symbol, object>)[cppdb]) as { prepare: (sql: string, ...rest: unknown[]) => { run: (...args: unknown[]) => unknown } };
  probe.close();
  const prepare = native.prepare;
  native.prepare = function (this: unknown, sql: string, ...rest: unknown[]) {
    const statement = prepare.call(this, sql, ...rest);
    const kind = sql === 'BEGIN IMMEDIATE' ? 'begin' : sql === 'COMMIT' ? 'commit' : undefined;
    if (kind) {
      const run = statement.run;
      statement.run = function (this: unknown, ...args: unknown[]) {
        const started = performance.now();
        try {
          return run.apply(this, args);
        } finally {
          const ms = performance.now() - started;
          const of = times[kind];
          of.count++;
          of.totalMs += ms;
          of.maxMs = Math.max(of.maxMs, ms);
          if (ms > 50) of.over50++;
        }
      };
    }
    return statement;
  };
}
timeTransactions();

/** This thread's SQLite transaction times since the last call. */
export function sqliteTimes(): SqliteTimes {
  const since = times;
  times = { begin: emptyTimes(), commit: emptyTimes() };
  return since;
}

interface Ask {
  kind: 'ask';
  id: number;
  gc: boolean;
  sentAt: number;
}

interface Answer {
  kind: 'heap';
  id: number;
  heap: ThreadHeap;
}

const MiB = 2 ** 20;
function ownTid(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return NaN;
  }
}

/** CPU time of every thread of this process so far, by kernel thread id, in ms. */
export function cpuMsByThread(): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) times.set(Number(tid), cpuMsOf(`/proc/self/task/${tid}/stat`));
  return times;
}

/**
 * The longest gap between two turns of the thread's event loop, seen by a 10 ms timer: work
 * chained through promises (microtasks) keeps the loop from turning, and perf_hooks'
 * monitorEventLoopDelay does not see that in a worker thread. Also kept: gaps over 50 ms, counted.
 */
const TICK_MS = 10;
const LONG_GAP_MS = 50;
let lastTick = performance.now();
let maxGap = 0;
let longGaps = 0;
let longGapsMs = 0;
setInterval(() => {
  const now = performance.now();
  const gap = now - lastTick - TICK_MS;
  maxGap = Math.max(maxGap, gap);
  if (gap > LONG_GAP_MS) {
    longGaps++;
    longGapsMs += gap;
  }
  lastTick = now;
}, TICK_MS).unref();

/** This thread's loop gaps since the last call: the longest, and how many (and how long in all) were over 50 ms. */
export function loopGaps(): { maxMs: number; over50: number; over50Ms: number } {
  const gaps = { maxMs: Math.max(maxGap, performance.now() - lastTick - TICK_MS), over50: longGaps, over50Ms: longGapsMs };
  maxGap = 0;
  longGaps = 0;
  longGapsMs = 0;
  return gaps;
}

function heapOf(gc: boolean, sentAt?: number): ThreadHeap {
  // With --expose-gc: what the thread still holds, not what it has yet to collect.
  if (gc) global.gc?.();
  const stats = getHeapStatistics();
  // The gap still open counts too: the thread answers in the middle of a turn. The main thread's are read with loopGaps().
  const maxLoopDelayMs = isMainThread ? NaN : loopGaps().maxMs;
  return {
    threadId,
    part: (workerData as { part?: string } | null)?.part ?? null,
    tid: ownTid(),
    usedMiB: stats.used_heap_size / MiB,
    totalMiB: stats.total_heap_size / MiB,
    cpuMs: cpuMsOf('/proc/thread-self/stat'),
    maxLoopDelayMs,
    // performance.timeOrigin differs per thread; Date.now() is shared.
    answeredAfterMs: sentAt === undefined ? 0 : Date.now() - sentAt,
    // The asking (main) thread's are read with sqliteTimes().
    sqlite: isMainThread ? { begin: emptyTimes(), commit: emptyTimes() } : sqliteTimes(),
  };
}

if (!isMainThread) {
  const channel = new BroadcastChannel(CHANNEL);
  // Never what keeps the thread alive.
  channel.unref();
  channel.onmessage = (event: unknown) => {
    const ask = (event as { data?: Ask }).data;
    if (ask?.kind === 'ask') channel.postMessage({ kind: 'heap', id: ask.id, heap: heapOf(ask.gc, ask.sentAt) } satisfies Answer);
  };
}

let asked = 0;

/**
 * This thread's figures, then those of every worker thread that answers within `timeoutMs`, in
 * the order of their parts' names (Tally's `followers` thread, which runs the projections, before
 * its `services` thread); ends early once `threads` answered.
 */
export async function threadHeaps({ gc = false, threads = 1, timeoutMs = 3000 }: { gc?: boolean; threads?: number; timeoutMs?: number } = {}): Promise<ThreadHeap[]> {
  const started = performance.now();
  const heaps = [heapOf(gc)];
  const channel = new BroadcastChannel(CHANNEL);
  const id = ++asked;
  try {
    await new Promise<void>((resolve) => {
      if (threads === 0) return resolve();
      const timer = setTimeout(resolve, Math.max(0, timeoutMs - (performance.now() - started)));
      channel.onmessage = (event: unknown) => {
        const answer = (event as { data?: Answer }).data;
        if (answer?.kind !== 'heap' || answer.id !== id) return;
        heaps.push(answer.heap);
        if (heaps.length > threads) {
          clearTimeout(timer);
          resolve();
        }
      };
      channel.postMessage({ kind: 'ask', id, gc, sentAt: Date.now() } satisfies Ask);
    });
  } finally {
    channel.close();
  }
  const [own, ...workers] = heaps;
  return [own, ...workers.sort((a, b) => (a.part ?? '').localeCompare(b.part ?? ''))];
}
