/**
 * Positions are stored as fixed-width decimal strings, so that text order equals numeric order:
 * neither SQLite nor MongoDB has an unsigned 64-bit integer, and EventStoreDB positions use all 64 bits.
 */
const WIDTH = 40;
const LIMIT = 10n ** BigInt(WIDTH);

export function encodePosition(position: bigint): string {
  if (typeof position !== 'bigint' || position < 0n || position >= LIMIT) {
    throw new RangeError(`Position must be a bigint in [0, 10^${WIDTH}): ${String(position)}`);
  }
  return position.toString().padStart(WIDTH, '0');
}

export function decodePosition(key: string): bigint {
  return BigInt(key);
}
