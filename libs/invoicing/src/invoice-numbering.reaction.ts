import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import { onClockOf, type RequestContext } from '@tally/cells';
import { asEventOf, CommandRuntime, Commands, type Reaction } from '@tally/runtime';
import type { InvoiceNumberReserved } from './domain/invoice-number-sequence';
import { invoiceAggregate } from './invoice.aggregate';
import { InvoiceFinalizer } from './invoice-finalizer';
import { InvoiceNumbering } from './invoice-numbering';
import { issued } from './subscription-invoices';

type UseReservedNumber = { type: 'UseReservedNumber'; data: InvoiceNumberReserved['data'] };

/**
 * Every reserved number ends on its invoice. Usually the writer that reserved it already put it
 * there, and the invoice (read from its stream) says so: nothing is sent. After a crash between
 * the reservation and the invoice's append, it completes the invoice: issues the one the
 * reservation carries, or finalises the draft it was reserved for, so no number is left unused.
 * The same reservation always calls for the same command, so a reaction (no stream of its own,
 * no write when there is nothing to do) is all it takes.
 */
@Injectable()
export class InvoiceNumberingReaction implements Reaction<UseReservedNumber> {
  readonly name = 'invoice_numbering';
  readonly streamPrefixes = ['invoice_number_sequence-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly finalizer: InvoiceFinalizer,
    private readonly numbering: InvoiceNumbering,
  ) {}

  commandOf(event: RecordedEvent) {
    if (event.type !== 'InvoiceNumberReserved') return undefined;
    const data = asEventOf<InvoiceNumberReserved>(event).data;
    return { lane: data.invoice_id, command: { type: 'UseReservedNumber' as const, data } };
  }

  async dispatch({ data }: UseReservedNumber, context: RequestContext): Promise<void> {
    const { invoice_id, number, issue } = data;
    await this.numbering.issued(invoice_id);
    const { state } = await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoice_id, context);
    if (state.status !== 'none' && state.number === number) return;
    if (issue) {
      await this.commands.send(invoiceAggregate, invoice_id, issued(issue, number), onClockOf(context, issue.clock_id ?? undefined));
      return;
    }
    await this.finalizer.finalize(context, invoice_id, { number, whenFinal: 'refuse' });
  }
}
