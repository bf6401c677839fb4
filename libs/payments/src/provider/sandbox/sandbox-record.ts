/** Where the sandbox provider keeps what it answered and what it holds: methods, payments, card checks. */
export interface SandboxRecord {
  get(key: string): Promise<unknown | undefined>;
  put(key: string, value: unknown): Promise<void>;
  /** The values of the keys that begin with `prefix`, in the order they were first put. */
  list(prefix: string): Promise<unknown[]>;
  /** Runs `work` alone against the record, also against other connections to it (another thread, another process). */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
}

export class InMemorySandboxRecord implements SandboxRecord {
  private readonly values = new Map<string, unknown>();

  // Copies in and out, as a store would: a caller changing an answer cannot change what is recorded.
  async get(key: string): Promise<unknown | undefined> {
    return structuredClone(this.values.get(key));
  }

  async put(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
  }

  async list(prefix: string): Promise<unknown[]> {
    return [...this.values].filter(([key]) => key.startsWith(prefix)).map(([, value]) => structuredClone(value));
  }

  exclusively<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
