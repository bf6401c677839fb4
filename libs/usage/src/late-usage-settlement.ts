import { Injectable } from '@nestjs/common';
import { derivedId, DomainError } from '@tally/kernel';
import { DuplicateEventIdError } from '@tally/eventstore';
import type { Cell, RequestContext } from '@tally/cells';
import { Clocks, commandStep, CommandRuntime, Commands } from '@tally/runtime';
import { invoiceClosing, subscriptionInvoiceId } from '@tally/invoicing';
import type { LateUsageSettled } from './domain/usage.events';
import { appendToIngestStream } from './usage-ingest-stream';
import { UsageProjectionProgress } from './usage-projection-progress';
import { LATE_USAGE, type LateUsageDoc } from './usage.projection';

/** More held groups than one batch can make (one per subscription it reaches). */
const MAX_HELD = 1000;

/**
 * The `rebill` rule for the late events the usage projection holds: void the period's invoice if
 * it can still be voided (open and unpaid), and record the outcome in the log (the projection then
 * counts the events in their own period, or in the open one). The corrected invoice is the
 * subscriptions context's to issue, by reaction to the recorded outcome. Every step is applied
 * once (command and event ids derive from the held group), so a crash anywhere is completed by the
 * reaction's retry.
 */
@Injectable()
export class LateUsageSettlement {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly progress: UsageProjectionProgress,
    private readonly commands: Commands,
  ) {}

  /** The late usage reaction's step for each accepted batch: settles each group of the batch's late events still held. */
  async settleBatch(context: RequestContext, batchId: string): Promise<void> {
    const cell = this.runtime.cellOf(context);
    await this.progress.caughtUp(cell, context);
    const { items } = await cell.readModels.find<LateUsageDoc>(LATE_USAGE, { where: [{ field: 'batch_id', op: 'eq', value: batchId }], limit: MAX_HELD });
    for (const held of items) if (held.status === 'pending') await this.settle(cell, commandStep(context, held.id), held);
  }

  private async settle(cell: Cell, context: RequestContext, held: LateUsageDoc): Promise<void> {
    const invoiceId = subscriptionInvoiceId(held.subscription_id, held.period.end);
    const voided = await this.commands.send(invoiceClosing, invoiceId, { type: 'VoidInvoice', data: { invoice_id: invoiceId } }, commandStep(context, 'void')).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError) return false;
        throw error;
      },
    );
    const settled: LateUsageSettled = {
      type: 'LateUsageSettled',
      data: {
        subscription_id: held.subscription_id,
        period_start: held.period.start,
        period_end: held.period.end,
        batch_id: held.batch_id,
        outcome: voided ? 'rebilled' : 'deferred',
        voided_invoice_id: voided ? invoiceId : null,
      },
    };
    try {
      await appendToIngestStream(cell, context, settledEventId(held.id), settled, await this.clocks.now(cell));
    } catch (error) {
      // Recorded by an earlier attempt: the same outcome, since the void is applied once.
      if (!(error instanceof DuplicateEventIdError)) throw error;
    }
  }
}

/** The outcome's event id derives from what it settles, so an attempt after a crash cannot record it twice (a ULID in form). */
const settledEventId = (heldId: string): string => `0${derivedId('x', [heldId, 'settled']).slice(3)}`;
