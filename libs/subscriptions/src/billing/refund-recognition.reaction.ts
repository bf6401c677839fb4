import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import { creditNoteRecognition, invoiceAggregate, type CreditNoteIssued } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, type Reaction } from '@tally/runtime';
import { subscriptionAggregate } from '../subscription.aggregate';

/** A credit note of an invoice, to be announced to the invoice's subscription, if it has one. */
export type AnnounceCreditNote = { type: 'AnnounceCreditNote'; data: { invoice_id: string; credit_note_id: string; refund_id: string | null } };

/**
 * A credit note on a subscription's invoice (every refund issues one) adjusts the invoice's revenue
 * recognition schedule: the subscription records it (`subscription.refund_processed`) with what the
 * credit note took off the schedule, worked out from the invoice as it is in the event store.
 */
@Injectable()
export class RefundRecognitionReaction implements Reaction<AnnounceCreditNote> {
  readonly name = 'subscription_refund_recognition';
  readonly streamPrefixes = ['invoice-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'CreditNoteIssued') return undefined;
    const data = event.data as CreditNoteIssued['data'] & { refund_id?: string | null };
    return { lane: data.invoice_id, command: { type: 'AnnounceCreditNote' as const, data: { invoice_id: data.invoice_id, credit_note_id: data.credit_note_id, refund_id: data.refund_id ?? null } } };
  }

  async dispatch({ data }: AnnounceCreditNote, context: RequestContext): Promise<void> {
    const { resource: invoice } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, data.invoice_id, context);
    const note = invoice?.credit_notes.find((credit) => credit.id === data.credit_note_id);
    if (!invoice?.subscription_id || !note) return;
    const recognition = creditNoteRecognition(invoice, note.id, new Date(note.created_at));
    await this.commands.send(
      subscriptionAggregate,
      invoice.subscription_id,
      { type: 'RecordRefundProcessed', data: { subscription_id: invoice.subscription_id, ...data, amount: note.amount, currency: invoice.currency, ...recognition, processed_at: note.created_at } },
      context,
    );
  }
}
