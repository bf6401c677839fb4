/** One stored event of an aggregate as the history endpoint shows it. */
export interface StoredEventView {
  object: 'stored_event';
  id: string;
  stream: string;
  revision: number;
  position: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}
