/** Which aggregate type an id belongs to, by its prefix (`cus_…` → `customer`). */
export interface AggregateType {
  idPrefix: string;
  type: string;
}

export const AGGREGATE_TYPES = Symbol('AggregateTypes');
