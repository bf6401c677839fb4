import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { asEventOf, type Reaction } from '@tally/runtime';
import type { CreditNoteDecided } from '@tally/invoicing';
import { Refunds } from './refunds';

type RefundCreditNote = { type: 'RefundCreditNote'; data: CreditNoteDecided['data'] };

/**
 * A credit note asked on the invoice with outcome `refund` is refunded: its refund (`rfd_` with the
 * note's id) is reserved on the payment it names, and the refund attempts process makes it from
 * there. A refund's own credit note names a refund already reserved: nothing happens.
 */
@Injectable()
export class CreditNoteRefundReaction implements Reaction<RefundCreditNote> {
  readonly name = 'credit_note_refund';
  readonly streamPrefixes = ['invoice-'];

  constructor(private readonly refunds: Refunds) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'CreditNoteDecided') return undefined;
    const data = asEventOf<CreditNoteDecided>(event).data;
    if (data.outcome.kind !== 'refund' || !data.payment_id || !data.refund_id) return undefined;
    return { lane: data.payment_id, command: { type: 'RefundCreditNote' as const, data } };
  }

  async dispatch({ data }: RefundCreditNote, context: RequestContext): Promise<void> {
    await this.refunds.refundCreditNote(context, data);
  }
}
