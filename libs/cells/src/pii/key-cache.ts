/**
 * Unwrapped data keys by subject, the least recently used evicted beyond the capacity. Each key
 * is copied into a buffer of its own: an unwrapped key is a slice of Node's shared allocation
 * pool, and a cached slice would keep its whole 8 KiB slab alive (about 90 MB at 100,000 keys).
 */
export class KeyCache {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly capacity: number) {}

  get(subjectId: string): Buffer | undefined {
    const key = this.keys.get(subjectId);
    if (key) {
      this.keys.delete(subjectId);
      this.keys.set(subjectId, key);
    }
    return key;
  }

  remember(subjectId: string, key: Buffer): Buffer {
    const held = Buffer.alloc(key.length);
    key.copy(held);
    this.keys.set(subjectId, held);
    if (this.keys.size > this.capacity) {
      const [oldest] = this.keys.keys();
      this.keys.delete(oldest);
    }
    return held;
  }

  forget(subjectId: string): void {
    this.keys.delete(subjectId);
  }
}
