import type { Position } from '@eventstore/db-client';

const PREPARE_MASK = (1n << 64n) - 1n;

/**
 * EventStoreDB orders $all by (commit, prepare), both below 2^64; packing them as
 * `commit << 64 | prepare` gives one bigint with the same order.
 */
export function encodePosition(position: Position): bigint {
  return (position.commit << 64n) | position.prepare;
}

export function decodePosition(position: bigint): Position {
  return { commit: position >> 64n, prepare: position & PREPARE_MASK };
}
