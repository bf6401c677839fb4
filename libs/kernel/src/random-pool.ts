import { randomBytes } from 'node:crypto';

/**
 * Random byte strings of one size, drawn from the CSPRNG in bulk: each randomBytes call has a fixed
 * cost several times that of the few bytes an id or an IV needs. Every refill is a new buffer, so
 * a string handed out is never overwritten, and none is handed out twice.
 */
export class RandomPool {
  private pool = Buffer.alloc(0);
  private nextAt = 0;

  constructor(
    private readonly size: number,
    private readonly perDraw: number,
  ) {}

  /** `size` fresh random bytes (a view into the pool's current buffer). */
  next(): Buffer {
    if (this.nextAt === this.pool.length) {
      this.pool = randomBytes(this.size * this.perDraw);
      this.nextAt = 0;
    }
    const bytes = this.pool.subarray(this.nextAt, this.nextAt + this.size);
    this.nextAt += this.size;
    return bytes;
  }
}
