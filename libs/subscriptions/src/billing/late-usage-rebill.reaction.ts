import { Injectable } from '@nestjs/common';
import { derivedId } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { Reaction } from '@tally/runtime';
import { INVOICE_ID_PREFIX } from '@tally/invoicing';
import { InvoiceReissue, type ReissueWithUsage } from './invoice-reissue';

/**
 * What the usage context publishes on its ingest streams once late events of a closed period are
 * placed (usage builds on subscriptions, so its event is read here by its stored shape): under
 * `rebilled`, the period's invoice was voided and the events count in their own period.
 */
type LateUsageSettled = {
  subscription_id: string;
  period_start: string;
  /** Null on events stored before this reaction issued the corrected invoice (their recorder issued it). */
  period_end: string | null;
  outcome: 'rebilled' | 'deferred';
  voided_invoice_id: string | null;
};

const USAGE_INGEST_STREAMS = 'usage_ingest-';

type ReissueWithLateUsage = { type: 'ReissueWithLateUsage'; data: ReissueWithUsage };

/**
 * Late usage rebilled: the voided invoice of the period is issued again, its usage lines priced with
 * the late events (which the usage port counts before it answers). The corrected invoice's id
 * derives from the usage event, so it is issued once.
 */
@Injectable()
export class LateUsageRebillReaction implements Reaction<ReissueWithLateUsage> {
  readonly name = 'late_usage_rebill';
  readonly streamPrefixes = [USAGE_INGEST_STREAMS];

  constructor(private readonly reissue: InvoiceReissue) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'LateUsageSettled') return undefined;
    const { subscription_id, period_start, period_end, outcome, voided_invoice_id } = event.data as LateUsageSettled;
    if (outcome !== 'rebilled' || voided_invoice_id === null || period_end === null) return undefined;
    const data = { subscription_id, voided_invoice_id, invoice_id: derivedId(INVOICE_ID_PREFIX, [event.id, 'rebill']), usage_period: { start: period_start, end: period_end } };
    return { lane: subscription_id, command: { type: 'ReissueWithLateUsage' as const, data } };
  }

  async dispatch({ data }: ReissueWithLateUsage, context: RequestContext): Promise<void> {
    await this.reissue.withUsage(context, data);
  }
}
