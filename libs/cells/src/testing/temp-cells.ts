import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, Upcaster } from '@tally/kernel';
import type { EventMetadata } from '@tally/eventstore';
import { openEmbeddedCells } from '../embedded-cells';
import type { CellRegistry } from '../cell-registry';
import type { PiiFieldSpec } from '../pii/pii-codec';

/** Embedded cells in a temporary folder that survives close(), so a test can reopen them as after a restart. */
export class TempCells {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'tally-cells-'));

  constructor(
    private readonly clock: Clock,
    private readonly pii: readonly PiiFieldSpec[] = [],
    private readonly upcasters: readonly Upcaster[] = [],
  ) {}

  open(): CellRegistry {
    return openEmbeddedCells({ dataDir: this.dataDir, regions: ['eu'], clock: this.clock, pii: this.pii, upcasters: this.upcasters });
  }

  remove(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const testMetadata = (occurredAt: string, overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  tenant_id: 'ten_test',
  environment: 'sandbox',
  actor: 'test',
  request_id: null,
  causation_id: null,
  correlation_id: null,
  occurred_at: occurredAt,
  schema_version: 1,
  ...overrides,
});
