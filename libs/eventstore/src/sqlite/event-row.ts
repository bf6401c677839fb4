/** A row of the embedded event store's table, as SQLite answers it. */
export interface EventRow {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}
