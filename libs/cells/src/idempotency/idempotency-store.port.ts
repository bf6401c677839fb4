/** A response as a replay sends it again. */
export interface StoredResponse {
  status: number;
  /** The headers a replay sends, lower-case names (e.g. `etag`, `content-type`, `original-request`). */
  headers: Readonly<Record<string, string>>;
  /** The JSON body; null for none. */
  body: unknown;
}

export interface IdempotencyClaim {
  /** Who and where: owner (tenant and environment, or `operator`), method and concrete path. */
  scope: string;
  /** The client's Idempotency-Key. */
  key: string;
  /** Hash of the request body: a replay says whether it was the first request's body. */
  fingerprint: string;
  now: Date;
  /** When the record is forgotten; from then on the key is new again. */
  expiresAt: Date;
  /** Until when a claim that is still running holds the key; after that it counts as abandoned. */
  lockedUntil: Date;
}

export type ClaimOutcome =
  /** The caller runs the request and then completes or releases the claim with `token`. */
  | { outcome: 'new'; token: string }
  /** Another request with this key is still running. */
  | { outcome: 'in_progress' }
  /** The first request's response; `sameBody` is false when that request had another body. */
  | { outcome: 'completed'; response: StoredResponse; sameBody: boolean };

/**
 * Remembers, per scope and Idempotency-Key, the response of the first request, so that a retry is
 * answered with it instead of running again. A record that has expired, or a running claim whose
 * lock has lapsed (its process died), counts as absent.
 */
export interface IdempotencyStore {
  claim(claim: IdempotencyClaim): Promise<ClaimOutcome>;
  /** Stores the response of the claim holding `token`; a claim taken over since then is left alone. */
  complete(scope: string, key: string, token: string, response: StoredResponse): Promise<void>;
  /** Forgets the claim holding `token`, so the key can be used again. */
  release(scope: string, key: string, token: string): Promise<void>;
}
