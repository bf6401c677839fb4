/** MongoDB's answer when an insert or upsert collides with an existing `_id` or unique index entry. */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
