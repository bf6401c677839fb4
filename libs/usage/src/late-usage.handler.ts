import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { derivedId, DomainError } from '@tally/kernel';
import { DuplicateEventIdError } from '@tally/eventstore';
import type { Cell, RequestContext } from '@tally/cells';
import { Clocks, commandStep, CommandRuntime } from '@tally/runtime';
import { INVOICE_ID_PREFIX, subscriptionInvoiceId, VoidInvoiceCommand } from '@tally/invoicing';
import { InvoiceReissue } from '@tally/subscriptions';
import type { LateUsageSettled } from './domain/usage.events';
import { appendToIngestStream } from './usage-ingest-stream';
import { UsageProjectionProgress } from './usage-projection-progress';
import { LATE_USAGE, type LateUsageDoc } from './usage.projection';

/** Sent by the late usage reaction for each accepted batch: rebill the periods its late events may still be billed in. */
export class SettleLateUsageCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly batchId: string,
  ) {
    super();
  }
}

/** More held groups than one batch can make (one per subscription it reaches). */
const MAX_HELD = 1000;

/**
 * The `rebill` rule for the late events the usage projection holds: void the period's invoice if
 * it can still be voided (open and unpaid), record the outcome in the log (the projection then
 * counts the events in their own period, or in the open one), and issue the corrected invoice.
 * Every step is applied once (command ids derive from the batch), so a crash anywhere is
 * completed by the reaction's retry.
 */
@CommandHandler(SettleLateUsageCommand)
export class SettleLateUsageHandler implements ICommandHandler<SettleLateUsageCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly progress: UsageProjectionProgress,
    private readonly commands: CommandBus,
    private readonly reissue: InvoiceReissue,
  ) {}

  async execute({ context, batchId }: SettleLateUsageCommand): Promise<void> {
    const cell = this.runtime.cellOf(context);
    await this.progress.caughtUp(cell, context);
    const { items } = await cell.readModels.find<LateUsageDoc>(LATE_USAGE, { where: [{ field: 'batch_id', op: 'eq', value: batchId }], limit: MAX_HELD });
    for (const held of items) {
      const step = commandStep(context, held.id);
      const invoiceId = subscriptionInvoiceId(held.subscription_id, held.period.end);
      const outcome = held.status === 'pending' ? await this.settle(cell, step, held, invoiceId) : held.status;
      if (outcome !== 'rebilled') continue;
      await this.progress.caughtUp(cell, context);
      const request = { subscription_id: held.subscription_id, voided_invoice_id: invoiceId, invoice_id: derivedId(INVOICE_ID_PREFIX, [held.id, 'rebill']), usage_period: held.period };
      await this.reissue.withUsage(commandStep(step, 'reissue'), request);
    }
  }

  private async settle(cell: Cell, context: RequestContext, held: LateUsageDoc, invoiceId: string): Promise<LateUsageSettled['data']['outcome']> {
    const voided = await this.commands.execute(new VoidInvoiceCommand(commandStep(context, 'void'), invoiceId)).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError) return false;
        throw error;
      },
    );
    const outcome = voided ? 'rebilled' : 'deferred';
    const settled: LateUsageSettled = {
      type: 'LateUsageSettled',
      data: { subscription_id: held.subscription_id, period_start: held.period.start, batch_id: held.batch_id, outcome, voided_invoice_id: voided ? invoiceId : null },
    };
    try {
      await appendToIngestStream(cell, context, settledEventId(held.id), settled, await this.clocks.now(cell));
    } catch (error) {
      // Recorded by an earlier attempt that stopped before the corrected invoice: the same outcome, since the void is applied once.
      if (!(error instanceof DuplicateEventIdError)) throw error;
    }
    return outcome;
  }
}

/** The outcome's event id derives from what it settles, so an attempt after a crash cannot record it twice (a ULID in form). */
const settledEventId = (heldId: string): string => `0${derivedId('x', [heldId, 'settled']).slice(3)}`;
