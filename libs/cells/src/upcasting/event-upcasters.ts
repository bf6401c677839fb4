import type { Upcaster } from '@tally/kernel';
import type { EventMetadata } from '@tally/eventstore';

/**
 * The upcasters of every context, chained by event type. A type's chain runs from version 1 up
 * without a gap; its current version (the one writers stamp) is one past the last upcaster, so a
 * type without upcasters is at version 1.
 */
export class EventUpcasters {
  /** Per event type, the upcaster of version v at index v - 1. */
  private readonly chains = new Map<string, Upcaster[]>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of [...upcasters].sort((a, b) => a.fromVersion - b.fromVersion)) {
      const chain = this.chains.get(upcaster.eventType) ?? [];
      if (upcaster.fromVersion !== chain.length + 1) {
        throw new Error(`The upcasters of ${upcaster.eventType} must run from version 1 up without a gap or a repeat; found ${upcaster.fromVersion} after ${chain.length}`);
      }
      this.chains.set(upcaster.eventType, [...chain, upcaster]);
    }
  }

  currentVersion(type: string): number {
    return (this.chains.get(type)?.length ?? 0) + 1;
  }

  /**
   * Whether an event stored at `version` is in its type's current shape. A version newer than the
   * current one was written by newer code (during a rolling deploy): this code cannot read it.
   */
  isCurrent(type: string, version: number): boolean {
    const current = this.currentVersion(type);
    if (!Number.isInteger(version) || version < 1 || version > current) {
      throw new Error(`${type} is stored at schema version ${String(version)}, which this code cannot read (it knows versions 1 to ${current})`);
    }
    return version === current;
  }

  /** The data of an event stored at `metadata.schema_version`, in its type's current shape. */
  upcast(type: string, data: unknown, metadata: EventMetadata): unknown {
    const chain = this.chains.get(type) ?? [];
    let upcast = data;
    for (let version = metadata.schema_version; version <= chain.length; version++) {
      upcast = chain[version - 1].upcast(upcast, { ...metadata, schema_version: version });
    }
    return upcast;
  }
}
