import { setTimeout as sleep } from 'node:timers/promises';

export interface RunnerLog {
  error(message: string, error: unknown): void;
}

/**
 * Runs `follow` until `stopped()`; when it fails, logs and starts it again after a growing pause
 * (100 ms × 1.5, at most 5 s), so a dropped subscription or a failing store never stops a runner
 * for good.
 */
export async function supervise(name: string, follow: () => Promise<void>, stopped: () => boolean, log: RunnerLog): Promise<void> {
  let backoff = 100;
  while (!stopped()) {
    try {
      await follow();
      backoff = 100;
    } catch (error) {
      log.error(`${name} failed; restarting from its checkpoint`, error);
      await sleep(backoff);
      backoff = Math.min(backoff * 1.5, 5_000);
    }
  }
}
