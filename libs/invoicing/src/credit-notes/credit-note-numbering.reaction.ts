import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { asEventOf, type Reaction } from '@tally/runtime';
import type { CreditNoteDecided } from '../domain/invoice.events';
import { CreditNoteIssuance } from './credit-note-issuance';

type NumberDecidedCreditNote = { type: 'NumberDecidedCreditNote'; data: { invoice_id: string; credit_note_id: string } };

/**
 * Every decided credit note gets its number. Usually the request that decided it numbered it
 * already, and the invoice says so: nothing is sent. After a crash between the decision and the
 * number, it reserves the number (the same one, if the reservation was made) and numbers the note.
 */
@Injectable()
export class CreditNoteNumberingReaction implements Reaction<NumberDecidedCreditNote> {
  readonly name = 'credit_note_numbering';
  readonly streamPrefixes = ['invoice-'];

  constructor(private readonly issuance: CreditNoteIssuance) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'CreditNoteDecided') return undefined;
    const { invoice_id, credit_note_id } = asEventOf<CreditNoteDecided>(event).data;
    return { lane: invoice_id, command: { type: 'NumberDecidedCreditNote' as const, data: { invoice_id, credit_note_id } } };
  }

  async dispatch({ data }: NumberDecidedCreditNote, context: RequestContext): Promise<void> {
    await this.issuance.number(context, data.invoice_id, data.credit_note_id);
  }
}
