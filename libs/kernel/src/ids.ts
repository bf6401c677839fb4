import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import { RandomPool } from './random-pool';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

export interface IdGenerator {
  /** `prefix_` + a ULID, e.g. `cus_01JD3M…`. */
  next(prefix: string): string;
  /** A bare ULID (26 characters), for event ids. */
  ulid(): string;
}

/**
 * Time-ordered ULIDs (https://github.com/ulid/spec) with the time from the Clock. Within one
 * millisecond the random part is incremented, so ids from one generator sort in creation order.
 */
export class UlidGenerator implements IdGenerator {
  private lastTime = -1;
  private lastRandom: number[] = [];

  constructor(private readonly clock: Clock) {}

  next(prefix: string): string {
    return `${prefix}_${this.ulid()}`;
  }

  ulid(): string {
    const time = this.clock.now().getTime();
    if (time <= this.lastTime) {
      this.lastRandom = incrementBase32(this.lastRandom);
    } else {
      this.lastTime = time;
      this.lastRandom = randomDigits();
    }
    return encodeTime(Math.max(time, this.lastTime)) + this.lastRandom.map((d) => CROCKFORD[d]).join('');
  }
}

/**
 * The id of a resource named by a natural key (a plan's code within a tenant and environment):
 * `prefix_` + 26 Crockford characters of the SHA-256 of the key's parts. The same parts always
 * give the same id, so creating the resource twice meets its own stream and fails on the
 * expected revision: uniqueness without a lookup.
 */
export function derivedId(prefix: string, parts: readonly string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  // The low 130 bits of the digest's first 17 bytes (136 bits), 5 at a time from the most significant.
  let out = `${prefix}_`;
  for (let offset = DIGEST_BITS - ID_BITS; offset < DIGEST_BITS; offset += 5) {
    const byte = offset >> 3;
    out += CROCKFORD[(((digest[byte] << 8) | digest[byte + 1]) >> (11 - (offset & 7))) & 31];
  }
  return out;
}

/**
 * A derived id (see derivedId) that sorts by the time of `madeAfter`, an id ending in a ULID
 * (`evt_01J…`): its first 10 characters are that ULID's time, the other 16 (80 bits) come from the
 * digest of the parts. Ids derived from things made in time order then land at the right edge of
 * a B-tree keyed by them, as minted ULIDs do, rather than on a random page each: a projection
 * that writes thousands of them a second commits far fewer pages.
 */
export function timeOrderedDerivedId(prefix: string, madeAfter: string, parts: readonly string[]): string {
  return `${prefix}_${ulidOf(madeAfter).slice(0, TIME_CHARS)}${derivedId(prefix, parts).slice(-RANDOM_CHARS)}`;
}

/** The bits of the digest an id is taken from (its first 17 bytes), and the 26 characters' worth of them it keeps. */
const DIGEST_BITS = 17 * 8;
const ID_BITS = (TIME_CHARS + RANDOM_CHARS) * 5;

/** True for `prefix_` followed by 26 Crockford characters, as `next` and `derivedId` mint them. */
export function isIdOf(prefix: string, value: string): boolean {
  return value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1));
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

const randomParts = new RandomPool(RANDOM_CHARS, 256);

function randomDigits(): number[] {
  return Array.from(randomParts.next(), (b) => b % 32);
}

function incrementBase32(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  throw new Error('ULID random part overflowed within one millisecond');
}

/** The time a ULID (or `prefix_ULID`) was minted at. */
export function ulidTime(id: string): Date {
  let ms = 0;
  for (const ch of ulidOf(id).slice(0, TIME_CHARS)) ms = ms * 32 + CROCKFORD.indexOf(ch);
  return new Date(ms);
}

const ulidOf = (id: string): string => id.slice(id.lastIndexOf('_') + 1);
