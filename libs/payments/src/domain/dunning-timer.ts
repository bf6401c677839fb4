/** A timer of a dunning process: the retry numbered `attempt`, or the end of a schedule whose failure may not be retried. */
export type DunningTimer = { kind: 'retry'; attempt: number } | { kind: 'exhausted' };

const RETRY = /^retry:([1-9]\d*)$/;

/**
 * The process runtime names timers with strings (`retry:2`, `exhausted`, as stored in the
 * process's stream); these two are the only places that write or read those names.
 */
export const DunningTimers = {
  idOf(timer: DunningTimer): string {
    switch (timer.kind) {
      case 'retry':
        return `retry:${timer.attempt}`;
      case 'exhausted':
        return 'exhausted';
    }
  },

  /** The timer a name stands for; undefined for a name no dunning timer has. */
  of(timerId: string): DunningTimer | undefined {
    if (timerId === 'exhausted') return { kind: 'exhausted' };
    const retry = RETRY.exec(timerId);
    return retry ? { kind: 'retry', attempt: Number(retry[1]) } : undefined;
  },
};
