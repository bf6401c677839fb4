import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';
import { lastIngestPosition } from './usage-ingest-stream';
import { USAGE_PROJECTION } from './usage.projection';

/** How long a read waits for the usage projection before it gives up (the projection runs in milliseconds behind). */
const WAIT_LIMIT_MS = 10_000;
const POLL_MS = 2;

/**
 * Read-your-write for usage: a read waits until the usage projection has counted every batch the
 * tenant had accepted when the read began. It watches the projection's checkpoint in the read
 * store, so it works wherever the projection runs (a thread, another process).
 */
@Injectable()
export class UsageProjectionProgress {
  async caughtUp(cell: Cell, context: RequestContext): Promise<void> {
    const accepted = await lastIngestPosition(cell, context);
    if (accepted === undefined) return;
    const deadline = performance.now() + WAIT_LIMIT_MS;
    for (;;) {
      const counted = await cell.readModels.getCheckpoint(USAGE_PROJECTION);
      if (counted !== undefined && counted >= accepted) return;
      if (performance.now() > deadline) {
        throw new DomainError('usage.not_counted_yet', 'unavailable', 'Usage accepted moments ago is not counted yet; retry shortly');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
