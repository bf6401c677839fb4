/**
 * One epoch of a named lease. A lease is a chain of epochs: every change (taking it, renewing it,
 * releasing it) inserts the next epoch, so two changes made from the same epoch compete for one
 * key and exactly one of them is stored. The epoch number is the fencing token.
 */
export interface LeaseEpoch {
  name: string;
  epoch: number;
  /** Null when the lease was released: free from then on. */
  holder: string | null;
  expiresAt: Date;
}

/**
 * Where leases live: an append-only set of epochs with a unique key per (name, epoch). It needs no
 * atomic conditional update, only an insert that refuses an existing key (FerretDB 1.x makes that
 * atomic, not a conditional update). The rules of taking and renewing are in leases.ts.
 */
export interface LeaseStore {
  /** The epoch with the highest number, if the lease was ever taken. */
  latest(name: string): Promise<LeaseEpoch | undefined>;
  /** Stores the epoch unless that epoch of that lease exists already; says whether it did. */
  insert(epoch: LeaseEpoch): Promise<boolean>;
  /** Deletes the epochs numbered below `epoch`, which no rule reads once a later one is stored. */
  forget(name: string, epoch: number): Promise<void>;
}
