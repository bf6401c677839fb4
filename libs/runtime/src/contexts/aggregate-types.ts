/** Which aggregate type an id belongs to, by its prefix (`cus_…` → `customer`). */
export interface AggregateType {
  idPrefix: string;
  type: string;
  /** Top-level fields of its events that the auditors' history shows as `[redacted]`: secrets and key hashes, never shown once written. */
  secretFields?: readonly { eventType: string; field: string }[];
}

export const AGGREGATE_TYPES = Symbol('AggregateTypes');
