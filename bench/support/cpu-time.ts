import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) so far of what a /proc stat file describes, in ms: a thread
 * (`/proc/thread-self/stat`, `/proc/self/task/<tid>/stat`) or a whole process with all its threads
 * (`/proc/<pid>/stat`); NaN when the file cannot be read.
 */
export function cpuMsOf(statFile: string): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
