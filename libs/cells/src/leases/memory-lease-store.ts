import type { LeaseEpoch, LeaseStore } from './lease-store.port';

/**
 * Leases held in this process's memory: the embedded profile, where one process serves a data
 * folder and so holds every lease at once. Two processes on one folder need a shared store (mongo).
 */
export class MemoryLeaseStore implements LeaseStore {
  private readonly epochs = new Map<string, Map<number, LeaseEpoch>>();

  async latest(name: string): Promise<LeaseEpoch | undefined> {
    const epochs = this.epochs.get(name);
    if (!epochs?.size) return undefined;
    return { ...epochs.get(Math.max(...epochs.keys()))! };
  }

  async insert(epoch: LeaseEpoch): Promise<boolean> {
    const epochs = this.epochs.get(epoch.name) ?? new Map<number, LeaseEpoch>();
    this.epochs.set(epoch.name, epochs);
    if (epochs.has(epoch.epoch)) return false;
    epochs.set(epoch.epoch, { ...epoch });
    return true;
  }

  async forget(name: string, epoch: number): Promise<void> {
    const epochs = this.epochs.get(name);
    for (const number of epochs?.keys() ?? []) if (number < epoch) epochs!.delete(number);
  }
}
