import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the request thread the worker thread runs: nice 10, about a tenth of a
 * core's time when both want the same one. Acknowledging a write comes first; projections catch
 * up as soon as requests leave them the core, and under no load this changes nothing.
 */
export const WORKER_THREAD_NICENESS = 10;

/**
 * Lowers the calling thread's CPU priority, where a thread has its own: on Linux the nice value is
 * a thread's, and `setpriority` of id 0 sets the caller's alone. Elsewhere it is the whole
 * process's, which would slow the request thread too, so nothing changes. Says whether it did.
 */
export function lowerThisThreadsPriority(niceness = WORKER_THREAD_NICENESS): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // A process started nicer than that stays as nice: only a privileged one may be made less so.
    setPriority(0, Math.max(getPriority(0), niceness));
    return true;
  } catch {
    // A container may refuse it; the thread then shares the CPU evenly, as before.
    return false;
  }
}
