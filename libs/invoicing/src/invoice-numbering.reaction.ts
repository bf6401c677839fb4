import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { Reaction } from '@tally/runtime';
import type { InvoiceNumberReserved } from './domain/invoice-number-sequence';
import { FinalizeInvoiceCommand } from './invoice.handlers';

type FinalizeWithNumber = { type: 'FinalizeWithReservedNumber'; data: { invoice_id: string; number: string } };

/**
 * Every reserved number ends on its invoice: for each reservation, finalise its invoice with it.
 * Usually the finaliser that reserved it already has, and the command does nothing; after a crash
 * between the reservation and the finalisation it completes the finalisation, so no number is left
 * unused. The same reservation always calls for the same command, so a reaction (no stream of its
 * own, no write when there is nothing to do) is all it takes.
 */
@Injectable()
export class InvoiceNumberingReaction implements Reaction<FinalizeWithNumber> {
  readonly name = 'invoice_numbering';
  readonly streamPrefixes = ['invoice_number_sequence-'];

  constructor(private readonly commands: CommandBus) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'InvoiceNumberReserved') return undefined;
    const { invoice_id, number } = (event as unknown as InvoiceNumberReserved).data;
    return { lane: invoice_id, command: { type: 'FinalizeWithReservedNumber' as const, data: { invoice_id, number } } };
  }

  async dispatch({ data }: FinalizeWithNumber, context: RequestContext): Promise<void> {
    await this.commands.execute(new FinalizeInvoiceCommand(context, data.invoice_id, data.number));
  }
}
