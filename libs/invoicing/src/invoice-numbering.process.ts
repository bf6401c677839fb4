import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandRejected, ProcessDecider, ProcessInput, TimerFired } from '@tally/kernel';
import type { ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { InvoiceNumberReserved } from './domain/invoice-number-sequence';
import { FinalizeInvoiceCommand } from './invoice.handlers';

type NumberReserved = ProcessInput<'InvoiceNumberReserved', { invoice_id: string; number: string }>;
type FinalizeWithNumber = { type: 'FinalizeWithReservedNumber'; data: { invoice_id: string; number: string } };

type State = { requested: boolean };

/**
 * One process per reserved number: finalise its invoice with it, once. Usually the finaliser that
 * reserved it already has, and the command does nothing; after a crash between the reservation
 * and the finalisation it completes the finalisation, so no number is left unused.
 */
export const invoiceNumberingDecider: ProcessDecider<State, NumberReserved | TimerFired | CommandRejected, { kind: 'command'; command: FinalizeWithNumber }> = {
  initialState: () => ({ requested: false }),
  evolve: (state, message) => (message.kind === 'command' ? { requested: true } : state),
  decide(input, state) {
    if (input.type !== 'InvoiceNumberReserved' || state.requested) return [];
    return [{ kind: 'command', command: { type: 'FinalizeWithReservedNumber', data: input.data } }];
  },
};

@Injectable()
export class InvoiceNumberingProcess implements ProcessManager<State, NumberReserved, FinalizeWithNumber> {
  readonly name = 'invoice_numbering';
  readonly streamPrefixes = ['invoice_number_sequence-'];
  readonly decider = invoiceNumberingDecider;

  constructor(private readonly commands: CommandBus) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'InvoiceNumberReserved') return undefined;
    const { invoice_id, number } = (event as unknown as InvoiceNumberReserved).data;
    return { processId: invoice_id, input: { id: event.id, type: 'InvoiceNumberReserved' as const, data: { invoice_id, number } } };
  }

  async dispatch({ data }: FinalizeWithNumber, context: RequestContext): Promise<void> {
    await this.commands.execute(new FinalizeInvoiceCommand(context, data.invoice_id, data.number));
  }
}
