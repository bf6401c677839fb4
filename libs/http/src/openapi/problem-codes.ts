/** The problem codes (docs/errors.md) an endpoint can answer, by HTTP status. */
export type ProblemCodes = Readonly<Partial<Record<number, readonly string[]>>>;

/** What the HTTP edge can answer on any route: body parsing and checks (a date or timestamp too, in a body or a parameter), media type, query parameters the route does not take, our own faults. */
export const EDGE_PROBLEMS: ProblemCodes = {
  400: ['request.malformed_json', 'request.invalid_body', 'request.invalid', 'request.invalid_parameter', 'request.timestamp_out_of_range'],
  413: ['request.too_large'],
  415: ['request.unsupported_media_type'],
  500: ['internal.error'],
};

/** Every `/v1` route that takes an API key: the key, the API version, the tenant's rate limit. */
export const API_KEY_PROBLEMS: ProblemCodes = {
  400: ['api_version.unknown'],
  401: ['auth.missing_api_key', 'auth.invalid_api_key'],
  429: ['rate_limit.exceeded'],
};

/** Every `/v1/operator` route. */
export const OPERATOR_PROBLEMS: ProblemCodes = {
  400: ['api_version.unknown'],
  401: ['auth.missing_operator_key', 'auth.invalid_operator_key'],
};

/** Every POST under `/v1`, which takes an `Idempotency-Key` (see ApiIdempotent). */
export const IDEMPOTENT_PROBLEMS: ProblemCodes = {
  400: ['idempotency.invalid_key'],
  409: ['idempotency.in_progress'],
};

/** Every list endpoint: `limit`, `cursor`, `sort` and the filters. */
export const LIST_PROBLEMS: ProblemCodes = { 400: ['request.invalid_parameter', 'pagination.cursor_invalid'] };

/** The union of `sets`, each status's codes once, in order. */
export function mergeProblemCodes(sets: readonly ProblemCodes[]): Map<number, string[]> {
  const merged = new Map<number, string[]>();
  for (const set of sets) {
    for (const [status, codes] of Object.entries(set)) {
      const known = merged.get(Number(status)) ?? [];
      merged.set(Number(status), [...known, ...(codes ?? []).filter((code) => !known.includes(code))]);
    }
  }
  return merged;
}
