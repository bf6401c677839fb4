/** What an upcaster may read of a stored event's metadata besides its data. */
export type UpcastMetadata = Readonly<{ tenant_id: string; environment: string; occurred_at: string; schema_version: number }>;

/**
 * Reads one stored version of an event type as the next version: `fromVersion` in, `fromVersion + 1`
 * out. Stored events never change; readers see them through the chain of upcasters of their type,
 * up to the type's current version. Pure, like a decider.
 */
export interface Upcaster {
  eventType: string;
  fromVersion: number;
  upcast(data: any, metadata: UpcastMetadata): unknown;
}
