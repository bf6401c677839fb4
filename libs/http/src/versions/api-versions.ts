/** API versions are dates; the core speaks the newest, older ones are served by transformers. */
export const API_VERSIONS = ['2024-10-01', '2025-04-01', '2025-10-01', '2026-04-01'] as const;

export type ApiVersion = (typeof API_VERSIONS)[number];

export const CURRENT_API_VERSION: ApiVersion = '2026-04-01';

export const isApiVersion = (value: string): value is ApiVersion => (API_VERSIONS as readonly string[]).includes(value);

/** True when `version` is older than `than` (dates compare as strings). */
export const isBefore = (version: ApiVersion, than: ApiVersion): boolean => version < than;
