/** The only source of "now". Nothing else reads the system time. */
export interface Clock {
  now(): Date;
}

export class SystemClock implements Clock {
  now(): Date {
    return new Date(Date.now());
  }
}

/** A clock that moves only when told to: for tests and sandbox test clocks. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}
