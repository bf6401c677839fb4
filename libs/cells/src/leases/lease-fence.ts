/** What a leased runner checks before a write that only the lease's holder may make. */
export interface LeaseFence {
  /** Throws LeaseLostError unless the lease is held and short of its deadline by this process's clock. */
  assertHeld(): void;
}

export class LeaseLostError extends Error {
  constructor(readonly lease: string) {
    super(`This process no longer holds the lease ${lease}`);
    this.name = 'LeaseLostError';
  }
}
